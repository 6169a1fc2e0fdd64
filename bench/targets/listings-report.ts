/** The listings benchmark's figures and how they are reported (`npm run bench`, `bench:curve`). */
import { BENCH_QUERIES } from '../lib/corpus.js';
import { commandLine, measuredOn } from '../lib/report.js';
import { serverCommand } from '../lib/server-entry.js';

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of latency samples (ms). */
export function percentiles(samples: number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] ?? 0 };
}

export interface Throughput {
  path: string;
  app: number;
  bare: number;
  /** Median of the per-pair ratios (each pair: app run, then bare run, back to back). */
  ratio: number;
  ratios: number[];
  appP99: number;
  bareP99: number;
  bytes: number;
}

export interface DialectResult {
  dialect: string;
  seedSeconds: number;
  indexSeconds: number;
  searchPlain: Percentiles;
  searchFiltered: Percentiles;
  filters: Percentiles;
  /** Section B: search + condition + course code + price sort (features.md §B). */
  searchSelling: Percentiles;
  throughput: Throughput[];
  rssMb: number;
  listings: number;
  /** Index build measured in the bench process on the same database (same code as the server). */
  indexBuildSeconds: number;
  indexHeapMb: number;
  agreement?: Agreement;
  load: string;
}

export interface Agreement {
  /** Mean share of Fuse.js's top 10 also in the app's top 10 (plain searches / with filters). */
  plain: number;
  filtered: number;
  /** Rank by rank, the app's listing has the same Fuse.js score (equal scores may be listed in another order). */
  plainScores: number;
  filteredScores: number;
  /** Queries whose top 10 is the same set. */
  plainExact: number;
  filteredExact: number;
  queries: number;
}

export interface Settings {
  listings: number;
  rounds: number;
  connections: number;
  seconds: number;
  repeats: number;
  fuseMax: number;
  curve?: number[];
}

/** The variables the listings benchmark reads, named in the reported command. */
const ENV = ['BENCH_', 'TEST_DATABASE_URL', 'SEARCH_THREADS'];

export const fmt = (ms: number) => ms.toFixed(2);

export function section(results: DialectResult[], skipped: string[], s: Settings): string {
  const lines = [
    measuredOn(commandLine('bench', ENV)),
    `${s.listings.toLocaleString('en-US')} synthetic listings (bench/lib/corpus.ts, ~10 % sold), the real server in its own process`,
    `(${serverCommand()}, NODE_ENV=production), requests over loopback with a real bearer token.`,
    `Latency: sequential requests, ${s.rounds} rounds of ${BENCH_QUERIES.length} mixed queries (exact words, typos, multi-word,`,
    'category words), measured at the client (includes HTTP, auth, JSON), after one untimed warm-up pass over every request',
    'shape (plain, filtered with other random filters, filters alone). Throughput: autocannon,',
    `${s.connections} connections, ${s.seconds} s per run; the app and a bare node:http server (given the same requests, token`,
    'included, and answering the same bytes) run',
    `back to back in ${s.repeats} pairs (alternating which goes first); the median pair's ratio is reported, with every pair's.`,
    'Fuse.js agreement, first round of queries (plain / with filters): "same scores" = rank by rank, the app\'s listing',
    "has the Fuse.js score (spec options, same unsold listings, same filters) of Fuse.js's listing at that rank;",
    '"same listings" = share of Fuse.js\'s top 10 in the app\'s first page of 10. The corpus repeats templated titles,',
    'so many listings tie; among equal scores Fuse.js lists the oldest first and the app the newest.',
    '',
    '| database | search p50 / p95 / p99 (ms) | search + filters p50 / p95 / p99 (ms) | filters alone p50 / p95 / p99 (ms) | top-10 agreement with Fuse.js (plain / filters; same set) | seed | index build | server RSS | load avg (1/5/15) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.dialect} | ${fmt(r.searchPlain.p50)} / ${fmt(r.searchPlain.p95)} / ${fmt(r.searchPlain.p99)} | ${fmt(r.searchFiltered.p50)} / ${fmt(r.searchFiltered.p95)} / ${fmt(r.searchFiltered.p99)} | ${fmt(r.filters.p50)} / ${fmt(r.filters.p95)} / ${fmt(r.filters.p99)} | ${agreementText(r.agreement, s.fuseMax)} | ${r.seedSeconds.toFixed(1)} s | ${r.indexBuildSeconds.toFixed(2)} s | ${r.rssMb.toFixed(0)} MB | ${r.load} |`,
    ),
    '',
    'Section B shapes (features.md §B), the same rounds: a third search + 1–2 conditions, a third search within one course',
    'code, a third browse by course code + condition; every one sorted by price (ascending or descending at random).',
    '~80 % of goods carry a condition, ~70 % of books one of 40 course codes.',
    '',
    '| database | search + condition + course code + price sort p50 / p95 / p99 / max (ms) |',
    '|---|---|',
    ...results.map(
      (r) =>
        `| ${r.dialect} | ${fmt(r.searchSelling.p50)} / ${fmt(r.searchSelling.p95)} / ${fmt(r.searchSelling.p99)} / ${fmt(r.searchSelling.max)} |`,
    ),
    '',
    '| database | endpoint | app req/s | bare node:http req/s | ratio (median) | every pair | app p99 (ms) | bare p99 (ms) | body bytes |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.throughput.map(
        (x) =>
          `| ${r.dialect} | \`${x.path.replace(/\d+$/, '{id}')}\` | ${x.app.toFixed(0)} | ${x.bare.toFixed(0)} | ${x.ratio.toFixed(2)} | ${x.ratios.map((v) => v.toFixed(2)).join(', ')} | ${x.appP99} | ${x.bareP99} | ${x.bytes} |`,
      ),
    ),
    '',
    '"index build": the search index built from the database by the server\'s code (LiveSearchIndex.warm), timed in the',
    'benchmark process on the same database; "server RSS": the server process after the latency runs.',
    '',
    'Targets: search + filters p95 ≤ 10 ms at 100k on both databases; reads ≥ 0.8 × bare node:http.',
    ...(skipped.length ? ['', `Skipped: ${skipped.join('; ')}.`] : []),
  ];
  return lines.join('\n');
}

export function agreementText(a: Agreement | undefined, fuseMax: number): string {
  if (!a) return `not computed (over ${fuseMax.toLocaleString('en-US')})`;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return `same scores ${pct(a.plainScores)} / ${pct(a.filteredScores)}; same listings ${pct(a.plain)} / ${pct(a.filtered)} (identical sets ${a.plainExact}/${a.queries}, ${a.filteredExact}/${a.queries})`;
}

export function curveSection(results: DialectResult[], s: Settings): string {
  return [
    measuredOn(commandLine('bench:curve', ENV)),
    `Sizes ${s.curve?.join(', ')}; ${s.rounds} rounds of ${BENCH_QUERIES.length} queries per size, the server in its own process (${serverCommand()}).`,
    '',
    '| listings | database | search p50 / p95 (ms) | search + filters p50 / p95 (ms) | filters alone p95 (ms) | index build | index heap | server RSS | Fuse.js top-10 agreement | load avg |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.listings.toLocaleString('en-US')} | ${r.dialect} | ${fmt(r.searchPlain.p50)} / ${fmt(r.searchPlain.p95)} | ${fmt(r.searchFiltered.p50)} / ${fmt(r.searchFiltered.p95)} | ${fmt(r.filters.p95)} | ${r.indexBuildSeconds.toFixed(1)} s | ${r.indexHeapMb.toFixed(0)} MB | ${r.rssMb.toFixed(0)} MB | ${agreementText(r.agreement, s.fuseMax)} | ${r.load} |`,
    ),
    '',
  ].join('\n');
}
