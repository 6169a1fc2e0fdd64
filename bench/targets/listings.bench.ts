/**
 * Listings benchmark (`npm run bench`): seeds 100,000 listings, then through the real server
 * (its own process, as in production: bench/lib/server-entry.ts) measures
 *   - search latency p50/p95/p99 (mixed queries, without and with category/price filters),
 *   - filter latency p50/p95/p99 (GET /listings/filters, bucket and category mixes),
 *   - section B latency: search + condition + course code + price sort (features.md §B),
 *   - requests/second of GET /listings/recent and GET /listing/{id} with a real bearer token,
 *     against a bare node:http server given the same requests (token included) and answering the
 *     same bytes, side by side, as a ratio;
 * on SQLite and on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/test when reachable). Loopback only.
 *
 * Beside the search latencies it prints the top-10 agreement with Fuse.js (the spec's search
 * library, same keys, weights and threshold) over the same corpus and the same queries.
 *
 * Environment: BENCH_LISTINGS (100000), BENCH_SECONDS per autocannon run (10),
 * BENCH_CONNECTIONS (16), BENCH_ROUNDS of the latency query mix (5), BENCH_REPEATS of each
 * app/bare throughput pair (3, the median ratio is reported), BENCH_DIALECTS (sqlite,postgres),
 * BENCH_WRITE=0 to print only, BENCH_READS=0 to skip the throughput pairs,
 * BENCH_SLOWEST=N to print the N slowest requests of each latency mix, BENCH_CPU_PROF=dir for
 * the server's CPU profile, BENCH_FUSE_MAX (100000: no Fuse.js agreement above this size).
 * The figures are printed and saved to bench/results/listings.md; BENCH_DOC=1 also puts them
 * between the listings markers of docs/performance.md (lib/report.ts).
 *
 * Cost curve (`npm run bench:curve`): BENCH_CURVE=10000,100000,1000000 runs each size in turn
 * (latency, index build, RSS; no throughput) and reports as `curve` instead.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { createOwnedPgDatabase } from '../lib/pg.js';
import { seededRandom } from '../../server/test/random.js';
import { LiveSearchIndex } from '../../server/src/listings/search/live-index.js';
import { startAppServer, type AppServer } from '../lib/app-server.js';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { reportMode, writeReport } from '../lib/report.js';
import { agent, agreement, filterParams, fuseOver, get, sellingParams } from './listings-queries.js';
import {
  curveSection,
  agreementText,
  fmt,
  percentiles,
  section,
  type Agreement,
  type DialectResult,
  type Percentiles,
  type Throughput,
} from './listings-report.js';
import { seed } from './listings-seed.js';
import { throughput, type RunSettings } from './listings-throughput.js';
const CURVE = process.env.BENCH_CURVE?.split(',').map((n) => Number(n.trim()));
let LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** Fuse.js scans every document per query: the agreement is computed up to this corpus size. */
const FUSE_MAX = Number(process.env.BENCH_FUSE_MAX ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const JWT_SECRET = randomBytes(32).toString('hex');
const SLOWEST = Number(process.env.BENCH_SLOWEST ?? 0);
/** BENCH_READS=0 skips the read-throughput pairs (latency and agreement only). */
const READS = process.env.BENCH_READS !== '0';
const RUN: RunSettings = { connections: CONNECTIONS, seconds: SECONDS, repeats: REPEATS };

/** BENCH_CPU_PROF=dir writes the server's CPU profile there (node --cpu-prof) when it stops. */
function startApp(env: Record<string, string>): Promise<AppServer> {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  return startAppServer({ jwtSecret: JWT_SECRET, env, nodeArgs: profile });
}

async function latency(port: number, token: string, urls: string[], label?: string): Promise<Percentiles> {
  const samples: number[] = [];
  const timed: Array<{ url: string; ms: number }> = [];
  for (const url of urls) {
    const res = await get(port, url, token);
    if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${res.body.toString().slice(0, 200)}`);
    samples.push(res.ms);
    timed.push({ url, ms: res.ms });
  }
  // BENCH_SLOWEST=N prints the N slowest requests of each timed mix (to find what a p95 is made of).
  if (label && SLOWEST > 0) {
    for (const t of timed.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST))
      console.log(`  [${label}] ${fmt(t.ms)} ms ${decodeURIComponent(t.url)}`);
  }
  return percentiles(samples);
}

async function runDialect(dialect: string): Promise<DialectResult | string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-listings-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    try {
      const scratch = await createOwnedPgDatabase(PG_URL, 'cm_bench_listings');
      databaseUrl = scratch.url;
      dropDb = scratch.drop;
    } catch (err) {
      return `PostgreSQL not reachable at ${PG_URL} (${(err as Error).message})`;
    }
  }
  let app: AppServer | undefined;
  try {
    const db = openDb({ databaseUrl, dataDir });
    await migrateToLatest(db);
    let t = performance.now();
    // Seeded as the database's owner across campuses: row-level security holds the owner too.
    const { tokens, someId, unsold } = await acrossCampuses(() => seed(db, LISTINGS, JWT_SECRET));
    const seedSeconds = (performance.now() - t) / 1000;
    console.log(`[${dialect}] seeded ${LISTINGS} listings in ${seedSeconds.toFixed(1)} s`);
    // The index the server builds at start-up, built here on the same database with the same code.
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    t = performance.now();
    const probe = new LiveSearchIndex(db);
    await acrossCampuses(() => probe.warm());
    const indexBuildSeconds = (performance.now() - t) / 1000;
    global.gc?.();
    const indexHeapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    console.log(
      `[${dialect}] index build ${indexBuildSeconds.toFixed(2)} s, ${indexHeapMb.toFixed(0)} MB of heap`,
    );
    await db.close();

    app = await startApp({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    const token = tokens[0] as string;
    t = performance.now();
    await get(app.port, '/listings/search?query=warm', token);
    const indexSeconds = (performance.now() - t) / 1000;
    console.log(`[${dialect}] search index ready after ${indexSeconds.toFixed(2)} s more`);

    const rand = seededRandom(99);
    const plain: string[] = [];
    const filtered: string[] = [];
    const filtersOnly: string[] = [];
    const selling: string[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const [i, q] of BENCH_QUERIES.entries()) {
        const shape = i % 3;
        selling.push(
          shape === 2
            ? `/listings/filters?${sellingParams(rand, shape)}`
            : `/listings/search?query=${encodeURIComponent(q)}&${sellingParams(rand, shape)}`,
        );
        plain.push(`/listings/search?query=${encodeURIComponent(q)}`);
        filtered.push(`/listings/search?query=${encodeURIComponent(q)}&${filterParams(rand)}`);
        filtersOnly.push(`/listings/filters?${filterParams(rand)}`);
      }
    }
    // One untimed pass to warm the JIT over every request shape (a long-running server has seen
    // them all): plain searches, searches with filters drawn from another seed than the timed
    // ones, filters alone. Without the filtered searches the first timed ones paid V8's
    // re-optimisation of the search loop (tens of ms each), which no warm server does.
    const warmRand = seededRandom(1234);
    const warmFiltered = BENCH_QUERIES.map(
      (q) => `/listings/search?query=${encodeURIComponent(q)}&${filterParams(warmRand)}`,
    );
    await latency(app.port, token, [
      ...plain.slice(0, BENCH_QUERIES.length),
      ...warmFiltered,
      ...warmFiltered,
      ...filtersOnly.slice(0, 30),
      ...BENCH_QUERIES.map(
        (q, i) => `/listings/search?query=${encodeURIComponent(q)}&${sellingParams(warmRand, i % 3)}`,
      ),
    ]);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    const searchPlain = await latency(app.port, token, plain, 'search');
    const searchFiltered = await latency(app.port, token, filtered, 'search + filters');
    const filters = await latency(app.port, token, filtersOnly, 'filters alone');
    const searchSelling = await latency(app.port, token, selling, 'section B');
    console.log(
      `[${dialect}] search + condition + course code + price sort p50/p95/p99 ${fmt(searchSelling.p50)}/${fmt(searchSelling.p95)}/${fmt(searchSelling.p99)} ms`,
    );
    console.log(
      `[${dialect}] search p50/p95/p99 ${fmt(searchPlain.p50)}/${fmt(searchPlain.p95)}/${fmt(searchPlain.p99)} ms; with filters ${fmt(searchFiltered.p50)}/${fmt(searchFiltered.p95)}/${fmt(searchFiltered.p99)} ms; filters alone ${fmt(filters.p50)}/${fmt(filters.p95)}/${fmt(filters.p99)} ms`,
    );

    let agreed: Agreement | undefined;
    if (LISTINGS <= FUSE_MAX) {
      const fuse = fuseOver(unsold);
      const plainAgree = await agreement(app.port, token, fuse, plain.slice(0, BENCH_QUERIES.length));
      const filteredAgree = await agreement(app.port, token, fuse, filtered.slice(0, BENCH_QUERIES.length));
      agreed = {
        plain: plainAgree.share,
        filtered: filteredAgree.share,
        plainScores: plainAgree.scoreShare,
        filteredScores: filteredAgree.scoreShare,
        plainExact: plainAgree.exact,
        filteredExact: filteredAgree.exact,
        queries: BENCH_QUERIES.length,
      };
      console.log(
        `[${dialect}] top-10 agreement with Fuse.js (plain / with filters): ${agreementText(agreed, FUSE_MAX)}`,
      );
    }

    const results: Throughput[] = [];
    for (const url of CURVE || !READS ? [] : ['/listings/recent', `/listing/${someId}`]) {
      const r = await throughput(RUN, app.port, token, url, dataDir);
      results.push(r);
      console.log(
        `[${dialect}] ${url}: app ${r.app.toFixed(0)} req/s, bare node:http ${r.bare.toFixed(0)} req/s, median ratio ${r.ratio.toFixed(2)} of ${r.ratios.map((x) => x.toFixed(2)).join(', ')}`,
      );
    }
    const rssMb =
      Number(readFileSync(`/proc/${app.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
    return {
      dialect,
      seedSeconds,
      indexSeconds,
      searchPlain,
      searchFiltered,
      filters,
      searchSelling,
      throughput: results,
      rssMb,
      listings: LISTINGS,
      indexBuildSeconds,
      indexHeapMb,
      agreement: agreed,
      load,
    };
  } finally {
    await app?.stop();
    await dropDb?.();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results: DialectResult[] = [];
const skipped: string[] = [];
for (const size of CURVE ?? [LISTINGS]) {
  LISTINGS = size;
  for (const dialect of DIALECTS) {
    const r = await runDialect(dialect);
    if (typeof r === 'string') {
      console.log(`[${dialect}] skipped: ${r}`);
      skipped.push(`${dialect}: ${r}`);
    } else results.push(r);
  }
}
agent.destroy();
const settings = {
  listings: LISTINGS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  seconds: SECONDS,
  repeats: REPEATS,
  fuseMax: FUSE_MAX,
  curve: CURVE,
};
const text = CURVE ? curveSection(results, settings) : section(results, skipped, settings);
// BENCH_WRITE=0: printed only. Nothing to file when every database was skipped.
if (results.length > 0) writeReport(CURVE ? 'curve' : 'listings', text, { mode: reportMode('BENCH_WRITE') });
else console.log(`\n${text}`);
