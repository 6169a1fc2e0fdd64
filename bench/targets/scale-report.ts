/** The scale benchmark's figures (scale.bench.ts) and how they are reported. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { repoRoot } from '../lib/paths.js';
import type { Percentiles } from './listings-report.js';
import type { ScaleChatResult } from './scale-chat.js';
import type { UploadResult } from './scale-uploads.js';

/** The benchmark's typo queries and the word each means. */
export const TYPO_QUERIES: Record<string, string> = {
  calculater: 'calculator',
  'mini frige': 'fridge',
  textbok: 'textbook',
  hedphones: 'headphones',
  jaket: 'jacket',
  tutring: 'tutoring',
  keybaord: 'keyboard',
  microwve: 'microwave',
};

/** Whether this checkout's server knows SEARCH_ENGINE=`engine` (memory is the only engine before §F). */
export function engineSupported(engine: string): boolean {
  if (engine === 'memory') return true;
  const config = readFileSync(path.join(repoRoot, 'server', 'src', 'config.ts'), 'utf8');
  return config.includes('SEARCH_ENGINE') && config.includes(`'${engine}'`);
}

export type TopTen = Map<string, Array<{ id: number; name: string }>>;

export interface EngineRun {
  engine: string;
  processes: number;
  /** From the first process's start to /readyz through nginx (the memory engine loads its index first). */
  startSeconds: number;
  /** From the first process's start until every process has answered a search. */
  searchableSeconds: number;
  search: Percentiles;
  browse: Percentiles;
  top: TopTen;
  rss: number[];
}

/** Top-10 agreement: same listings (ids), same titles (the corpus repeats titles; ties pick any of them). */
export function agreement(a: TopTen, b: TopTen) {
  let ids = 0;
  let titles = 0;
  let identical = 0;
  for (const q of BENCH_QUERIES) {
    const x = a.get(q) ?? [];
    const y = b.get(q) ?? [];
    const size = Math.max(x.length, y.length);
    const yIds = new Set(y.map((l) => l.id));
    const common = x.filter((l) => yIds.has(l.id)).length;
    const names = new Map<string, number>();
    for (const l of y) names.set(l.name, (names.get(l.name) ?? 0) + 1);
    let sameNames = 0;
    for (const l of x) {
      const left = names.get(l.name) ?? 0;
      if (left > 0) {
        sameNames++;
        names.set(l.name, left - 1);
      }
    }
    ids += size === 0 ? 1 : common / size;
    titles += size === 0 ? 1 : sameNames / size;
    if (common === size) identical++;
  }
  return { ids: ids / BENCH_QUERIES.length, titles: titles / BENCH_QUERIES.length, identical };
}

/** Typo queries whose first result names the word meant. */
export function typosFound(top: TopTen): string[] {
  return Object.entries(TYPO_QUERIES)
    .filter(([q, word]) => (top.get(q)?.[0]?.name ?? '').toLowerCase().includes(word))
    .map(([q]) => q);
}

const ms = (p: Percentiles) => `${p.p50.toFixed(2)} / ${p.p95.toFixed(2)} / ${p.p99.toFixed(2)}`;
const mb = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
const n = (x: number) => x.toLocaleString('en-US');

export function scaleReport(r: {
  command: string;
  campuses: number;
  listings: number;
  largest: number;
  medianCampus: number;
  smallestCampus: number;
  smallListings: number;
  loadSeconds: number;
  rounds: number;
  runs: EngineRun[];
  smallRuns: EngineRun[];
  smallLargest: number;
  chat?: ScaleChatResult;
  uploads?: UploadResult;
  storage: string;
  skipped: string[];
}): string {
  const lines = [
    r.command,
    '',
    `${n(r.campuses)} campuses, ${n(r.listings)} listings (the largest campus ${n(r.largest)}, sizes falling off ` +
      `as a power law: median ${n(r.medianCampus)}, smallest ${n(r.smallestCampus)}; ~10 % sold), loaded by PostgreSQL in ${r.loadSeconds.toFixed(0)} s (scale-seed.ts). Every request ` +
      `goes through nginx (deploy/nginx/campus-market.conf) to the production bundle, NODE_ENV=production, ` +
      `on PostgreSQL and Redis; photos: ${r.storage}. Reads: the largest campus, sequential, after an untimed warm-up; ` +
      `search + filters = ${BENCH_QUERIES.length * 3 * r.rounds} requests (plain search, search with filters, filter counts), ` +
      `browse = ${BENCH_QUERIES.length * 3 * r.rounds} pages of \`/listings/recent\` (first and deeper pages).`,
    '',
    '| listings (largest campus) | engine | processes | start to ready / to a first search | search + filters p50 / p95 / p99 (ms) | browse p50 / p95 / p99 (ms) | RSS per process (MB) |',
    '|---|---|---|---|---|---|---|',
    ...[
      ...r.smallRuns.map((x) => ({ x, corpus: `${n(r.smallListings)} (${n(r.smallLargest)})` })),
      ...r.runs.map((x) => ({ x, corpus: `${n(r.listings)} (${n(r.largest)})` })),
    ].map(
      ({ x, corpus }) =>
        `| ${corpus} | ${x.engine} | ${x.processes} | ${x.startSeconds.toFixed(0)} s / ${x.searchableSeconds.toFixed(0)} s | ${ms(x.search)} | ${ms(x.browse)} | ${mb(x.rss)} |`,
    ),
    '',
  ];
  const pgRun = r.runs.find((x) => x.engine === 'postgres');
  for (const [label, runs] of [
    [`${n(r.smallListings)} listings`, r.smallRuns],
    [`${n(r.listings)} listings`, r.runs],
  ] as const) {
    const p = runs.find((x) => x.engine === 'postgres');
    const m = runs.find((x) => x.engine === 'memory');
    if (p && m) {
      const a = agreement(p.top, m.top);
      lines.push(
        `Top-10 agreement at ${label}, postgres vs memory, over the ${BENCH_QUERIES.length} benchmark queries: same listings ` +
          `${(a.ids * 100).toFixed(0)} %, same titles ${(a.titles * 100).toFixed(0)} %, identical top-10 in ${a.identical} of ${BENCH_QUERIES.length}.`,
      );
    }
    for (const x of runs) {
      const found = typosFound(x.top);
      const all = Object.keys(TYPO_QUERIES);
      lines.push(
        `Typo queries whose first result names the word meant (${x.engine}, ${label}): ${found.length} of ${all.length}` +
          (found.length < all.length
            ? ` (missed: ${all.filter((q) => !found.includes(q)).join(', ')})`
            : '') +
          '.',
      );
    }
  }
  const smallPg = r.smallRuns.find((x) => x.engine === 'postgres');
  if (smallPg && pgRun)
    lines.push(
      '',
      `RSS per process with SEARCH_ENGINE=postgres: ${mb(smallPg.rss)} MB at ${n(r.smallListings)} listings, ` +
        `${mb(pgRun.rss)} MB at ${n(r.listings)} (after the reads${r.chat ? ', the chat load and the uploads' : ''}).`,
    );
  if (r.chat) {
    const c = r.chat;
    lines.push(
      '',
      `Chat through nginx (the ${r.runs.find((x) => x.processes > 1)?.engine ?? r.runs[0]?.engine} engine's cluster): ${n(c.clients)} stock \`@stomp/stompjs\` clients in pairs, ` +
        `${(c.crossProcessShare * 100).toFixed(0)} % of the pairs with buyer and seller on different processes (via Redis).`,
      '',
      '| rate (msg/s) | duration | sent | lost | p50 | p95 | p99 | max | disconnects |',
      '|---|---|---|---|---|---|---|---|---|',
      `| ${c.achievedRate} (target ${c.rate}) | ${c.seconds} s | ${n(c.sent)} | ${c.lost} | ${c.p50} ms | ${c.p95} ms | ${c.p99} ms | ${c.max} ms | ${c.disconnects} |`,
    );
  }
  if (r.uploads) {
    const u = r.uploads;
    lines.push(
      '',
      `Photo uploads: ${u.count} × \`POST /listing\` with one ${(u.photoBytes / 1024).toFixed(0)} KB 1600 × 1200 JPEG, ` +
        `sequential, through nginx: p50 / p95 / max ${u.latency.p50.toFixed(0)} / ${u.latency.p95.toFixed(0)} / ${u.latency.max.toFixed(0)} ms.`,
    );
  }
  lines.push(
    '',
    'Targets: search + filters p95 ≤ 20 ms (postgres) and ≤ 10 ms (memory); browse p95 ≤ 5 ms; RSS per process ' +
      '≤ 350 MB with postgres, flat from 100k to 2M; chat p99 ≤ 50 ms at 1,000 msg/s, 0 lost.',
  );
  if (r.skipped.length) lines.push('', `Skipped: ${r.skipped.join('; ')}.`);
  return lines.join('\n');
}
