/**
 * The one report writer of the benchmarks. docs/performance.md is written by people; a benchmark
 * owns only the text between its own generated markers there
 *
 *   <!-- bench:<name>:start -->
 *   …figures of the latest run…
 *   <!-- bench:<name>:end -->
 *
 * and never touches a byte outside them. By default a run does not touch the doc at all: it prints
 * its figures and saves them to bench/results/<name>.md (gitignored). BENCH_DOC=1 also puts them
 * between the markers; a doc without that benchmark's markers (or with them broken) is refused,
 * the figures are still printed and saved.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.js';

export const PERFORMANCE_DOC = path.join(repoRoot, 'docs', 'performance.md');
export const RESULTS_DIR = path.join(repoRoot, 'bench', 'results');

export function markers(name: string): { start: string; end: string } {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not a benchmark report name: ${name}`);
  return { start: `<!-- bench:${name}:start -->`, end: `<!-- bench:${name}:end -->` };
}

/** The doc cannot take this report: its markers are missing, repeated or out of order. */
export class MarkersError extends Error {
  override name = 'MarkersError';
}

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/**
 * `doc` with the text between the `name` markers replaced by `body`; everything before the start
 * marker and after the end marker is returned byte for byte. Throws MarkersError when the markers
 * are not there exactly once each, start before end.
 */
export function replaceBetweenMarkers(doc: string, name: string, body: string): string {
  const { start, end } = markers(name);
  if (body.includes(start) || body.includes(end))
    throw new MarkersError(`the ${name} report contains its own markers`);
  const starts = occurrences(doc, start);
  const ends = occurrences(doc, end);
  if (starts.length !== 1 || ends.length !== 1 || ends[0]! < starts[0]!) {
    throw new MarkersError(
      `expected one "${start}" followed by one "${end}", found ${starts.length} start and ${ends.length} end marker(s)` +
        (starts.length === 1 && ends.length === 1 ? ' in the wrong order' : ''),
    );
  }
  const from = starts[0]! + start.length;
  return `${doc.slice(0, from)}\n${body.trim()}\n${doc.slice(ends[0]!)}`;
}

export type ReportMode = 'results' | 'doc' | 'none';

/**
 * Where a run's report goes, from the environment: BENCH_DOC=1 → results file and the doc's
 * markers; `<offVariable>=0` (each benchmark's older switch, e.g. BENCH_CHAT_WRITE) → printed only;
 * otherwise the results file.
 */
export function reportMode(offVariable?: string, env: NodeJS.ProcessEnv = process.env): ReportMode {
  if (env.BENCH_DOC === '1') return 'doc';
  if (offVariable && env[offVariable] === '0') return 'none';
  return 'results';
}

export interface WriteOptions {
  mode?: ReportMode;
  /** For tests: the doc and the results folder to write to. */
  doc?: string;
  resultsDir?: string;
  /** Where progress lines go (default: stderr). */
  log?: (line: string) => void;
}

/**
 * Prints `body` and files it as `mode` says. Returns the files written. When the doc refuses the
 * report, the results file is written anyway and the MarkersError is thrown after it.
 */
export function writeReport(name: string, body: string, options: WriteOptions = {}): string[] {
  const mode = options.mode ?? reportMode();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { start } = markers(name);
  const text = `${body.trim()}\n`;
  console.log(`\n${text}`);
  const written: string[] = [];
  if (mode === 'none') return written;
  const dir = options.resultsDir ?? RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, text);
  written.push(file);
  log(`[bench] wrote ${path.relative(repoRoot, file)}`);
  if (mode === 'doc') {
    const docFile = options.doc ?? PERFORMANCE_DOC;
    const doc = readFileSync(docFile, 'utf8');
    let next: string;
    try {
      next = replaceBetweenMarkers(doc, name, body);
    } catch (err) {
      if (err instanceof MarkersError)
        err.message = `${path.relative(repoRoot, docFile)} left unchanged: ${err.message}. Add a "${start}" … end block where these figures belong.`;
      throw err;
    }
    writeFileSync(docFile, next);
    written.push(docFile);
    log(`[bench] wrote ${path.relative(repoRoot, docFile)} between the ${name} markers`);
  }
  return written;
}

/**
 * The command as this run was started: the npm script with every variable of the environment that
 * the benchmark reads (names starting with one of `prefixes`), so a reader can repeat it exactly.
 */
export function commandLine(
  npmScript: string,
  prefixes: string[],
  env: NodeJS.ProcessEnv = process.env,
): string {
  const vars = Object.entries(env)
    .filter(([name, value]) => value !== undefined && prefixes.some((p) => name.startsWith(p)))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${/^[\w@%+=:,./-]*$/.test(value!) ? value : `'${value}'`}`);
  return [...vars, `npm run ${npmScript}`].join(' ');
}

/** The line every report starts with: when and on what it was measured. */
export function measuredOn(command: string): string {
  const cpus = os.cpus();
  return (
    `Measured by \`${command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end.`
  );
}
