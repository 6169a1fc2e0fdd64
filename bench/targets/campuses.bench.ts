/**
 * Campuses benchmark (`npm run bench:campuses`, features.md §E): does one deployment serving many
 * campuses search as fast as one serving a single campus?
 *
 *   1. single: one campus of BENCH_LISTINGS (100,000) listings — today's deployment.
 *   2. many:   the same large campus among BENCH_SMALL_CAMPUSES (1,000) small ones of
 *              BENCH_SMALL_LISTINGS (100) listings each, in one deployment (CAMPUSES file).
 *      Search + filters p95 of the large campus, against run 1 in the same run (target: within
 *      10 %), and of small campuses (target: ≤ 2 ms).
 *   3. memory: BENCH_RSS_CAMPUSES (1,000) campuses × BENCH_RSS_LISTINGS (1,000) listings: the server
 *      process's RSS once every campus has answered a search (BENCH_RSS=0 skips it).
 *
 * Each run seeds a fresh database, starts the server as production does (lib/app-server.ts) and asks
 * sequentially, after an untimed warm-up over every request shape, with a real bearer token.
 * Environment: BENCH_DIALECTS (sqlite), BENCH_ROUNDS (5), BENCH_DATABASE_URL / TEST_DATABASE_URL for
 * postgres. Figures are printed and saved to bench/results/campuses.md; BENCH_DOC=1 also writes them
 * between the campuses markers of docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { openDb, type Db } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { seededRandom } from '../../server/test/random.js';
import { startAppServer, type AppServer } from '../lib/app-server.js';
import { benchCampuses, installCampuses } from '../lib/campuses.js';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { createOwnedPgDatabase } from '../lib/pg.js';
import { commandLine, measuredOn, reportMode, writeReport } from '../lib/report.js';
import { agent, filterParams, get } from './listings-queries.js';
import { percentiles, type Percentiles } from './listings-report.js';
import { seed } from './listings-seed.js';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SMALL_CAMPUSES = Number(process.env.BENCH_SMALL_CAMPUSES ?? 1000);
const SMALL_LISTINGS = Number(process.env.BENCH_SMALL_LISTINGS ?? 100);
const RSS_CAMPUSES = Number(process.env.BENCH_RSS_CAMPUSES ?? 1000);
const RSS_LISTINGS = Number(process.env.BENCH_RSS_LISTINGS ?? 1000);
const RSS = process.env.BENCH_RSS !== '0';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite').split(',').map((d) => d.trim());
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const JWT_SECRET = randomBytes(32).toString('hex');

const fmt = (ms: number) => ms.toFixed(2);

/** Searches (plain and with filters) and filter counts, as the listings benchmark mixes them. */
function requestMix(seedValue: number, rounds: number): string[] {
  const rand = seededRandom(seedValue);
  const urls: string[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of BENCH_QUERIES) {
      urls.push(`/listings/search?query=${encodeURIComponent(q)}`);
      urls.push(`/listings/search?query=${encodeURIComponent(q)}&${filterParams(rand)}`);
      urls.push(`/listings/filters?${filterParams(rand)}`);
    }
  }
  return urls;
}

/** Sequential requests, each with the token of its turn; every answer must be 200. */
async function timed(port: number, tokens: string[], urls: string[]): Promise<Percentiles> {
  const samples: number[] = [];
  for (const [i, url] of urls.entries()) {
    const res = await get(port, url, tokens[i % tokens.length] as string);
    if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${res.body.toString().slice(0, 200)}`);
    samples.push(res.ms);
  }
  return percentiles(samples);
}

interface Scratch {
  db: Db;
  dataDir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function scratch(dialect: string): Promise<Scratch> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-campuses-'));
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const created = await createOwnedPgDatabase(PG_URL, 'cm_bench_campuses');
    databaseUrl = created.url;
    drop = created.drop;
  }
  const db = openDb({ dataDir, databaseUrl });
  await migrateToLatest(db);
  return {
    db,
    dataDir,
    env: {
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    async cleanup() {
      await drop?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function rssMb(server: AppServer): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function serve(s: Scratch, env: Record<string, string>): Promise<AppServer> {
  await s.db.close();
  return startAppServer({ jwtSecret: JWT_SECRET, env: { ...s.env, ...env }, timeoutMs: 600_000 });
}

interface LatencyResult {
  dialect: string;
  single: Percentiles;
  large: Percentiles;
  small: Percentiles;
  singleRss: number;
  manyRss: number;
}

async function latencyRuns(dialect: string): Promise<LatencyResult> {
  const warm = requestMix(1234, 1);
  const mix = requestMix(99, ROUNDS);

  // 1. One campus, as a deployment is today.
  const one = await scratch(dialect);
  let single: Percentiles;
  let singleRss: number;
  try {
    const seeded = await acrossCampuses(() => seed(one.db, LISTINGS, JWT_SECRET));
    const server = await serve(one, {});
    try {
      await timed(server.port, seeded.tokens, warm);
      single = await timed(server.port, seeded.tokens, mix);
      singleRss = rssMb(server);
    } finally {
      await server.stop();
    }
  } finally {
    await one.cleanup();
  }
  console.log(
    `[${dialect}] one campus: search + filters p50/p95/p99 ${fmt(single.p50)}/${fmt(single.p95)}/${fmt(single.p99)} ms`,
  );

  // 2. The same campus among many small ones.
  const many = await scratch(dialect);
  try {
    const list = benchCampuses(SMALL_CAMPUSES + 1, {
      slug: 'large',
      name: 'Large State',
      emailDomains: ['large.edu'],
      timeZone: 'America/Detroit',
      default: true,
    });
    const { file, campuses } = await acrossCampuses(() => installCampuses(many.db, many.dataDir, list));
    const started = performance.now();
    const large = await acrossCampuses(() =>
      seed(many.db, LISTINGS, JWT_SECRET, { id: campuses[0]!.id, domain: 'large.edu' }),
    );
    const smallTokens: string[] = [];
    for (const campus of campuses.slice(1)) {
      const s = await acrossCampuses(() =>
        seed(many.db, SMALL_LISTINGS, JWT_SECRET, {
          id: campus.id,
          domain: campus.emailDomains[0]!,
          sellers: 5,
        }),
      );
      smallTokens.push(s.tokens[0]!);
    }
    console.log(
      `[${dialect}] seeded ${LISTINGS} + ${SMALL_CAMPUSES} × ${SMALL_LISTINGS} listings in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const server = await serve(many, { CAMPUSES: file });
    try {
      // Warm every request shape on the large campus and on every small campus once.
      await timed(server.port, large.tokens, warm);
      await timed(
        server.port,
        smallTokens,
        requestMix(4321, Math.ceil(smallTokens.length / warm.length) + 1),
      );
      const largeP = await timed(server.port, large.tokens, mix);
      const smallP = await timed(server.port, smallTokens, mix);
      const manyRss = rssMb(server);
      console.log(
        `[${dialect}] large campus among ${SMALL_CAMPUSES}: p50/p95/p99 ${fmt(largeP.p50)}/${fmt(largeP.p95)}/${fmt(largeP.p99)} ms; small campuses ${fmt(smallP.p50)}/${fmt(smallP.p95)}/${fmt(smallP.p99)} ms`,
      );
      return { dialect, single, large: largeP, small: smallP, singleRss, manyRss };
    } finally {
      await server.stop();
    }
  } finally {
    await many.cleanup();
  }
}

async function rssRun(dialect: string): Promise<{ dialect: string; rss: number; seedSeconds: number }> {
  const s = await scratch(dialect);
  try {
    const list = benchCampuses(RSS_CAMPUSES);
    const { file, campuses } = await acrossCampuses(() => installCampuses(s.db, s.dataDir, list));
    const started = performance.now();
    const tokens: string[] = [];
    for (const campus of campuses) {
      const seeded = await acrossCampuses(() =>
        seed(s.db, RSS_LISTINGS, JWT_SECRET, { id: campus.id, domain: campus.emailDomains[0]!, sellers: 5 }),
      );
      tokens.push(seeded.tokens[0]!);
    }
    const seedSeconds = (performance.now() - started) / 1000;
    const server = await serve(s, { CAMPUSES: file });
    try {
      // Every campus searched once, so whatever a campus keeps in memory is there.
      const urls = tokens.map(
        (_, i) => `/listings/search?query=${encodeURIComponent(BENCH_QUERIES[i % BENCH_QUERIES.length]!)}`,
      );
      await timed(server.port, tokens, urls);
      const rss = rssMb(server);
      console.log(
        `[${dialect}] ${RSS_CAMPUSES} campuses × ${RSS_LISTINGS} listings: server RSS ${rss.toFixed(0)} MB`,
      );
      return { dialect, rss, seedSeconds };
    } finally {
      await server.stop();
    }
  } finally {
    await s.cleanup();
  }
}

const latencies: LatencyResult[] = [];
const memory: Array<{ dialect: string; rss: number; seedSeconds: number }> = [];
for (const dialect of DIALECTS) {
  latencies.push(await latencyRuns(dialect));
  if (RSS) memory.push(await rssRun(dialect));
}
agent.destroy();

const command = commandLine('bench:campuses', ['BENCH_', 'TEST_DATABASE_URL']);
const lines = [
  measuredOn(command),
  '',
  `Search + filters (${BENCH_QUERIES.length * 3 * ROUNDS} requests per cell: plain search, search with filters, filter counts), sequential, after a warm-up:`,
  '',
  '| database | one campus of ' +
    LISTINGS.toLocaleString('en-US') +
    ' p50 / p95 / p99 (ms) | the same campus among ' +
    SMALL_CAMPUSES.toLocaleString('en-US') +
    ' small ones | p95 ratio | small campuses (' +
    SMALL_LISTINGS +
    ' listings each) | server RSS one / many |',
  '|---|---|---|---|---|---|',
  ...latencies.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.single.p50)} / ${fmt(r.single.p95)} / ${fmt(r.single.p99)} | ${fmt(r.large.p50)} / ${fmt(r.large.p95)} / ${fmt(r.large.p99)} | ${(r.large.p95 / r.single.p95).toFixed(2)} | ${fmt(r.small.p50)} / ${fmt(r.small.p95)} / ${fmt(r.small.p99)} | ${r.singleRss.toFixed(0)} / ${r.manyRss.toFixed(0)} MB |`,
  ),
  '',
  ...(memory.length > 0
    ? [
        `Memory: ${RSS_CAMPUSES.toLocaleString('en-US')} campuses × ${RSS_LISTINGS.toLocaleString('en-US')} listings, every campus searched once:`,
        '',
        '| database | server RSS | seed |',
        '|---|---|---|',
        ...memory.map((m) => `| ${m.dialect} | ${m.rss.toFixed(0)} MB | ${m.seedSeconds.toFixed(0)} s |`),
        '',
      ]
    : []),
  'Targets: the large campus within 10 % of one campus (p95 ratio ≤ 1.10); small campuses p95 ≤ 2 ms.',
];
writeReport('campuses', lines.join('\n'), { mode: reportMode('BENCH_WRITE') });
