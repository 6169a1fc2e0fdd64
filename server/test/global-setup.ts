import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTemplates } from './database-templates.js';

/**
 * Vitest global set-up for the app tests: the migrated template databases every test app copies
 * (database-templates.ts). Workers start after this and inherit the variables that name them.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cm-template-'));
  const templates = await createTemplates(process.env.TEST_DATABASE_URL, dir);
  return async () => {
    await templates.drop();
    await rm(dir, { recursive: true, force: true });
  };
}
