import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MarkersError,
  commandLine,
  markers,
  replaceBetweenMarkers,
  reportMode,
  writeReport,
} from './report.js';

const HAND_WRITTEN_BEFORE = [
  '# Performance',
  '',
  'Hand-written notes a benchmark must never touch — even trailing spaces   ',
  '## Chat',
  '',
  'The target: p99 ≤ 25 ms.\r\n',
  '<!-- bench:chat:start -->',
].join('\n');
// Ends in blank lines: the old writers trimmed the doc's end.
const HAND_WRITTEN_AFTER = [
  '<!-- bench:chat:end -->',
  '',
  'How to read it: …',
  '',
  '## Idle',
  '',
  '',
  '',
].join('\n');
const OLD_FIGURES = '\n| run | p99 |\n|---|---|\n| single | 6.33 ms |\n';
const DOC = `${HAND_WRITTEN_BEFORE}${OLD_FIGURES}${HAND_WRITTEN_AFTER}`;

describe('the benchmark report writer', () => {
  let dir: string;
  let docFile: string;
  let resultsDir: string;
  const quiet = { log: () => {} };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cm-bench-report-'));
    docFile = path.join(dir, 'performance.md');
    resultsDir = path.join(dir, 'results');
    writeFileSync(docFile, DOC);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces only the text between its own markers, every other byte unchanged', () => {
    const next = replaceBetweenMarkers(DOC, 'chat', '| run | p99 |\n|---|---|\n| single | 4.10 ms |');
    expect(next.startsWith(HAND_WRITTEN_BEFORE)).toBe(true);
    expect(next.endsWith(HAND_WRITTEN_AFTER)).toBe(true);
    expect(next).toContain('| single | 4.10 ms |');
    expect(next).not.toContain('6.33 ms');
    // Run twice, the result is the same (no blank lines pile up between the markers).
    expect(replaceBetweenMarkers(next, 'chat', '| run | p99 |\n|---|---|\n| single | 4.10 ms |')).toBe(next);
  });

  it("leaves another benchmark's markers and text alone", () => {
    const doc = `${DOC}<!-- bench:idle:start -->\nidle figures\n<!-- bench:idle:end -->\n`;
    const next = replaceBetweenMarkers(doc, 'idle', 'new idle figures');
    expect(next.slice(0, DOC.length)).toBe(DOC);
    expect(next).toContain('<!-- bench:idle:start -->\nnew idle figures\n<!-- bench:idle:end -->\n');
  });

  it('refuses a doc without its markers, with one of them, or with them out of order', () => {
    const { start, end } = markers('chat');
    for (const doc of [
      '# Performance\n\nno markers at all\n',
      `${start}\nonly the start\n`,
      `only the end\n${end}\n`,
      `${end}\nreversed\n${start}\n`,
      `${start}\n${end}\n${start}\n${end}\n`,
    ]) {
      expect(() => replaceBetweenMarkers(doc, 'chat', 'figures'), doc).toThrow(MarkersError);
    }
    expect(() => replaceBetweenMarkers(DOC, 'chat', `sneaky ${end}`)).toThrow(MarkersError);
  });

  it('by default prints and saves to the results folder and never opens the doc', () => {
    const written = writeReport('chat', 'the figures', { ...quiet, doc: docFile, resultsDir });
    expect(written).toEqual([path.join(resultsDir, 'chat.md')]);
    expect(readFileSync(path.join(resultsDir, 'chat.md'), 'utf8')).toBe('the figures\n');
    expect(readFileSync(docFile, 'utf8')).toBe(DOC);
  });

  it('with BENCH_DOC=1 writes between the markers and nowhere else in the doc', () => {
    writeReport('chat', 'fresh figures', { ...quiet, mode: 'doc', doc: docFile, resultsDir });
    expect(readFileSync(docFile, 'utf8')).toBe(
      `${HAND_WRITTEN_BEFORE}\nfresh figures\n${HAND_WRITTEN_AFTER}`,
    );
  });

  it('when the doc has no markers for it, leaves the doc byte-identical and still saves the figures', () => {
    expect(() =>
      writeReport('web', 'lighthouse figures', { ...quiet, mode: 'doc', doc: docFile, resultsDir }),
    ).toThrow(/left unchanged.*<!-- bench:web:start -->/);
    expect(readFileSync(docFile, 'utf8')).toBe(DOC);
    expect(readFileSync(path.join(resultsDir, 'web.md'), 'utf8')).toBe('lighthouse figures\n');
  });

  it('reads where to write from the environment, each benchmark keeping its older off switch', () => {
    expect(reportMode('BENCH_CHAT_WRITE', {})).toBe('results');
    expect(reportMode('BENCH_CHAT_WRITE', { BENCH_DOC: '1' })).toBe('doc');
    expect(reportMode('BENCH_CHAT_WRITE', { BENCH_CHAT_WRITE: '0' })).toBe('none');
    expect(reportMode(undefined, { BENCH_WRITE: '0' })).toBe('results');
  });

  it('names the command with the variables the benchmark read, so a reader can repeat the run', () => {
    const env = { BENCH_CHAT_SECONDS: '40', TEST_REDIS_URL: 'redis://127.0.0.1:6379', HOME: '/root' };
    expect(commandLine('bench:chat', ['BENCH_CHAT_', 'TEST_'], env)).toBe(
      'BENCH_CHAT_SECONDS=40 TEST_REDIS_URL=redis://127.0.0.1:6379 npm run bench:chat',
    );
    expect(commandLine('bench:chat', ['BENCH_CHAT_'], { BENCH_CHAT_NODE_ARGS: '--trace-gc --x' })).toBe(
      "BENCH_CHAT_NODE_ARGS='--trace-gc --x' npm run bench:chat",
    );
  });
});
