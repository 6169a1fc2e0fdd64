/**
 * The read benchmarks' baseline: lib/bare-server.ts, a bare node:http server in its own process
 * answering every request with the exact status, headers and body the app sent for the same URL.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScript } from './processes.js';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.ts');

/** Headers node:http writes per response itself, and the app's per-request id: not copied. */
const PER_RESPONSE = ['date', 'connection', 'keep-alive', 'x-request-id'];

/**
 * Starts a bare server answering `sample` (one response of the app: status, every header it sent,
 * security headers included, and the body) on a free loopback port. `workDir` holds the captured
 * response file.
 */
export function startBareServer(
  sample: { status: number; headers: IncomingHttpHeaders; body: Buffer },
  workDir: string,
): ReturnType<typeof startScript> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(sample.headers))
    if (!PER_RESPONSE.includes(k) && typeof v === 'string') headers[k] = v;
  const captureFile = path.join(workDir, `capture-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    captureFile,
    JSON.stringify({ status: sample.status, headers, body: sample.body.toString('base64') }),
  );
  return startScript(script, { env: { BARE_RESPONSE: captureFile, PORT: '0' } });
}
