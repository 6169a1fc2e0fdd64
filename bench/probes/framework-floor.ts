/**
 * What a framework costs per hot read, apart from the app (`npm run bench:floor`): scratch servers
 * answering the same 449-byte JSON with the app's response headers, measured alternately
 * with autocannon (16 connections, FLOOR_SECONDS per run, FLOOR_ROUNDS rounds; medians and the CPU
 * per request from /proc):
 *
 * - `bare`: node:http, writeHead + end (the read benchmark's baseline);
 * - `fastify`: Fastify with the app's two hooks (security headers on request, a synchronous auth
 *   pre-handler) and a route sending the same bytes;
 * - `…-heap`: the same server holding 100,000 listing-like objects (≈ the search index's heap).
 *
 * The question: does the framework, or the process's size, keep `/listing/{id}` under
 * 0.8 × bare? On that session's 2-core machine separately started processes differed by more than
 * this measures (docs/performance-journal.md, "Listings"): repeat with FLOOR_MODES in another order (ratios are to the
 * first) before believing a figure. FLOOR_MODES picks servers (default: all four).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { securityHeaders } from '../../server/src/http/security-headers.js';
import { startScript } from '../lib/processes.js';

const MODES = (process.env.FLOOR_MODES ?? 'bare,fastify,bare-heap,fastify-heap').split(',');
const SECONDS = Number(process.env.FLOOR_SECONDS ?? 5);
const ROUNDS = Number(process.env.FLOOR_ROUNDS ?? 5);
const URL_PATH = '/listing/1950';
const AUTH = { authorization: `Bearer ${'t'.repeat(200)}` };

/** Prints `listening <port>` once it accepts connections (lib/processes.ts startScript). */
function announce(server: { address(): unknown }): void {
  const address = server.address() as { port: number } | null;
  process.stdout.write(`listening ${address?.port ?? ''}\n`);
}

function serve(mode: string): void {
  const body = Buffer.from(JSON.stringify({ id: 1950, title: 'x'.repeat(380), savedByMe: false }));
  // The app's own security headers, as production sends them.
  const security = { ...securityHeaders(true, 'https://market.example.edu') };
  if (mode.endsWith('-heap')) {
    const heap = Array.from({ length: 100_000 }, (_, i) => ({
      id: i,
      title: `listing ${i} ${Math.random().toString(36)}`,
      words: Array.from({ length: 20 }, (_, j) => `w${(i * j) % 5000}`),
      seen: new Map([[i, `a${i}`]]),
    }));
    (globalThis as Record<string, unknown>).heap = heap;
  }
  let seq = 0;
  if (mode.startsWith('bare')) {
    const headers = { ...security, 'x-request-id': 'r-1', 'content-type': 'application/json; charset=utf-8' };
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.end(body);
    });
    server.keepAliveTimeout = 72_000;
    server.listen(0, '127.0.0.1', () => announce(server));
    return;
  }
  const app = Fastify({ genReqId: () => `r-${(seq += 1).toString(36)}` });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(security);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.headers.authorization) return done(new Error('no token'));
    done();
  });
  app.get('/listing/:id', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
  void app.listen({ port: 0, host: '127.0.0.1' }).then(() => announce(app.server));
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  // Each server listens once its heap is built, so the first measurement never overlaps the build.
  const servers = await Promise.all(
    MODES.map(async (mode) => ({
      mode,
      ...(await startScript(fileURLToPath(import.meta.url), { args: [mode] })),
    })),
  );
  try {
    const run = (port: number, duration: number) =>
      autocannon({ url: `http://127.0.0.1:${port}${URL_PATH}`, connections: 16, duration, headers: AUTH });
    for (const s of servers) await run(s.port, 2); // warm-up
    const results = new Map<string, Array<{ rps: number; us: number }>>(MODES.map((m) => [m, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
        const before = cpuTicks(s.child.pid!);
        const r = await run(s.port, SECONDS);
        const ticks = cpuTicks(s.child.pid!) - before;
        results.get(s.mode)!.push({ rps: r.requests.average, us: (ticks * 1e4) / r.requests.total });
      }
    }
    const bare = median(results.get(MODES[0]!)!.map((r) => r.rps));
    console.log(`${URL_PATH}, ${ROUNDS} rounds of ${SECONDS} s, medians; ratios to ${MODES[0]}`);
    for (const mode of MODES) {
      const r = results.get(mode)!;
      const rps = median(r.map((x) => x.rps));
      console.log(
        `  ${mode.padEnd(13)} ${rps.toFixed(0).padStart(6)} req/s  ratio ${(rps / bare).toFixed(2)}  CPU µs/request ${median(r.map((x) => x.us)).toFixed(1)} (rounds: ${r.map((x) => x.us.toFixed(1)).join(', ')})`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

if (process.argv[2]) serve(process.argv[2]);
else await main();
