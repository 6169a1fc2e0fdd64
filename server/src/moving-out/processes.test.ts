import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dayStartMs } from '@campus/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgDatabase, createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { DAY, DETROIT, call, dayAhead, listing, listingAt, notices, runMoveOutJobs } from './testing.js';

/**
 * Two app processes on one database (features.md §D "Scheduled work … runs exactly once with N
 * processes"): both run the move-out timers at the same moment; each step happens once.
 */
describe.each(dialects)('move-out timers across two processes (%s)', (dialect) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('lowers the price once and tells the saver once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-moveout-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    const a: TestApp = await createTestApp({ dialect, dataDir, databaseUrl, jobWorker: false });
    cleanups.push(() => a.close());
    const b: TestApp = await createTestApp({ dialect, dataDir, databaseUrl, jobWorker: false });
    cleanups.push(() => b.close());

    const seller = await createStudent(a, { firstName: 'Omar' });
    const saver = await createStudent(a, { firstName: 'Sam' });
    const desk = await listingAt(a, seller.id, 'Standing desk', 10000);
    expect((await call(a, saver, 'PUT', `/listings/${desk}/save`)).statusCode).toBe(200);
    const date = dayAhead(a, 12);
    expect((await call(a, seller, 'PUT', '/users/me/move-out', { date, autoDrop: true })).statusCode).toBe(
      200,
    );

    const at = dayStartMs(date, DETROIT) - 7 * DAY + 60_000;
    a.clock.nowMs = at;
    b.clock.nowMs = at;
    const [ranA, ranB] = await Promise.all([runMoveOutJobs(a), runMoveOutJobs(b)]);
    // The step and the later ones not yet due: exactly one process ran the 7-day step.
    expect(ranA + ranB).toBe(1);
    expect((await listing(b, saver, desk)).price).toBe(80);
    expect(await notices(a, saver, 'PRICE_DROP')).toHaveLength(1);
    await Promise.all([runMoveOutJobs(a), runMoveOutJobs(b)]);
    expect((await listing(a, saver, desk)).price).toBe(80);
  });
});
