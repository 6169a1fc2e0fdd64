/**
 * How the benchmarks start the real server. By default as `npm start` runs it in production: the
 * esbuild bundle, `node server/dist/main.js` (and `dist/search-worker.js` in the search threads),
 * built once per benchmark run from the checkout's source so the figures are always today's code.
 * BENCH_SERVER=source runs `node --import tsx server/src/main.ts` instead — no build, but the tsx
 * loader then compiles TypeScript in the main thread and in every worker thread, which production
 * never does.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot as root } from './paths.js';

const fromSource = process.env.BENCH_SERVER === 'source';
/** The arguments for each checkout, made once: its bundle built and its start flags read. */
const argsByCwd = new Map<string, string[]>();

/**
 * The Node flags `npm start` gives the server (`node <flags> server/dist/main.js` in the checkout's
 * package.json), so a benchmark runs what production runs — today `--no-memory-reducer`
 * (docs/decisions.md, "Performance, session 13"). Throws when the start script has another shape.
 */
export function productionNodeFlags(cwd: string = root): string[] {
  const pkg = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const start = pkg.scripts?.start ?? '';
  const match = /(?:^|&&\s*)node\s+((?:--[\w-]+(?:=\S+)?\s+)*)server\/dist\/main\.js\s*$/.exec(start);
  if (!match)
    throw new Error(`package.json's start script does not run node … server/dist/main.js: ${start}`);
  return (match[1] ?? '').split(/\s+/).filter(Boolean);
}

/** The node arguments (after any flags) that start the server in `cwd` (default: this checkout). */
export function serverArgs(cwd: string = root): string[] {
  if (fromSource) return ['--import', 'tsx', 'server/src/main.ts'];
  let args = argsByCwd.get(cwd);
  if (!args) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(cwd, 'server'), stdio: 'inherit' });
    args = [...productionNodeFlags(cwd), 'server/dist/main.js'];
    argsByCwd.set(cwd, args);
  }
  return args;
}

/** How the server ran, for the reports: the command line a reader can repeat. */
export function serverCommand(): string {
  return fromSource
    ? '`node --import tsx server/src/main.ts`, BENCH_SERVER=source'
    : `\`${['node', ...productionNodeFlags(), 'server/dist/main.js'].join(' ')}\`, the bundle \`npm start\` runs, built from the checkout at the start`;
}
