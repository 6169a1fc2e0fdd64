/**
 * Starts the app of the checkout at BENCH_ROOT (default: this repository) for abuse-costs.ts,
 * with every HTTP rate limit raised (the benchmark measures costs, not limits) and, when
 * BENCH_MAX_SESSIONS is set, the per-student STOMP session cap raised to it. Builds the app through
 * its own `buildApp`/`loadConfig`, so an older checkout (the seed commit) runs its own code; options
 * it does not know are ignored. Prints `listening <port>` once it accepts connections.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../lib/paths.js';

const root = process.env.BENCH_ROOT ?? repoRoot;
const load = (file: string) => import(pathToFileURL(path.join(root, 'server/src', file)).href);

interface AppLike {
  listen(options: { port: number; host: string }): Promise<string>;
  server: { address(): unknown };
}

const { buildApp } = (await load('app.ts')) as {
  buildApp(config: unknown, options: Record<string, unknown>): Promise<AppLike>;
};
const { loadConfig } = (await load('config.ts')) as { loadConfig(env: NodeJS.ProcessEnv): unknown };
const { DEFAULT_LIMITS } = (await load('http/rate-limit.ts')) as { DEFAULT_LIMITS: Record<string, unknown> };

const raised = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS).map((name) => [name, { points: 1_000_000_000, durationSeconds: 60 }]),
);
const maxSessions = process.env.BENCH_MAX_SESSIONS ? Number(process.env.BENCH_MAX_SESSIONS) : undefined;
const app = await buildApp(loadConfig(process.env), {
  rateLimits: raised,
  logger: false,
  webDist: '/nonexistent',
  ...(maxSessions
    ? { chat: { server: { maxSessionsPerUser: maxSessions, maxPendingPerIp: 1_000_000 } } }
    : {}),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
console.log(`listening ${address.port}`);
