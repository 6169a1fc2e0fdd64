/**
 * How the benchmarks start the real server. By default as `npm start` runs it in production: the
 * esbuild bundle, `node server/dist/main.js` (and `dist/search-worker.js` in the search threads),
 * built once per benchmark run from the checkout's source so the figures are always today's code.
 * BENCH_SERVER=source runs `node --import tsx server/src/main.ts` instead — no build, but the tsx
 * loader then compiles TypeScript in the main thread and in every worker thread, which production
 * never does.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fromSource = process.env.BENCH_SERVER === 'source';
const built = new Set<string>();

/** The node arguments (after any flags) that start the server in `cwd` (default: this checkout). */
export function serverArgs(cwd: string = root): string[] {
  if (fromSource) return ['--import', 'tsx', 'server/src/main.ts'];
  if (!built.has(cwd)) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(cwd, 'server'), stdio: 'inherit' });
    built.add(cwd);
  }
  return ['server/dist/main.js'];
}

/** How the server ran, for the reports: the command line a reader can repeat. */
export function serverCommand(): string {
  return fromSource
    ? '`node --import tsx server/src/main.ts`, BENCH_SERVER=source'
    : '`node server/dist/main.js`, the bundle `npm start` runs, built from the checkout at the start';
}
