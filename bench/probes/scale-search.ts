/**
 * Probe: the PostgreSQL search engine alone (no HTTP, no cluster) on the scale benchmark's data, to
 * see where a search's time goes (scale.bench.ts measures the whole path). Loads the data once into
 * a database it keeps, so runs after the first start in seconds:
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/probes/scale-search.ts
 *
 * prints `PROBE_DB_URL=…` after the load; pass it back to reuse the data. PROBE_ROUNDS (3),
 * PROBE_EXPLAIN=query prints the plan of that query's first page, PROBE_ONLY=query times only it.
 * Sizes as scale.bench.ts: BENCH_SCALE_CAMPUSES, BENCH_SCALE_LISTINGS, BENCH_SCALE_LARGEST.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CATEGORIES, CONDITIONS, PRICE_BUCKETS, bucketsToRange, type Category } from '@campus/contract';
import pg from 'pg';
import { openDb } from '../../server/src/db/connection.js';
import { inCampus } from '../../server/src/db/campus-scope.js';
import { PostgresSearch } from '../../server/src/listings/search/postgres-search.js';
import type { SearchFilters } from '../../server/src/listings/search/search-types.js';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { createOwnedPgDatabase } from '../lib/pg.js';
import { percentiles } from '../targets/listings-report.js';
import { loadScaleData } from '../targets/scale-seed.js';

const env = process.env;
const num = (name: string, fallback: number) => Number(env[name] ?? fallback);
const BASE = env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomFilters(rand: () => number): SearchFilters {
  const categories: Category[] = [];
  for (let i = 0; i < Math.floor(rand() * 3); i++)
    categories.push(CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category);
  const range = bucketsToRange(PRICE_BUCKETS.filter(() => rand() < 0.35).map((b) => b.id));
  const f: SearchFilters = {};
  if (categories.length) f.categories = categories;
  if (range.priceMin !== undefined) f.minCents = range.priceMin * 100;
  if (range.priceMax !== undefined) f.maxCents = range.priceMax * 100;
  if (!f.categories && f.minCents === undefined && f.maxCents === undefined) f.categories = ['BOOKS'];
  if (rand() < 0.2) f.conditions = [CONDITIONS[0]];
  return f;
}

async function dataUrl(): Promise<string> {
  if (env.PROBE_DB_URL) return env.PROBE_DB_URL;
  const created = await createOwnedPgDatabase(BASE, 'cm_probe_scale');
  const listings = num('BENCH_SCALE_LISTINGS', 2_000_000);
  await loadScaleData({
    ownerUrl: created.url,
    adminUrl: BASE.replace(/\/[^/]*$/, `/${new URL(created.url).pathname.slice(1)}`),
    dataDir: await mkdtemp(path.join(os.tmpdir(), 'cm-probe-scale-')),
    campusCount: num('BENCH_SCALE_CAMPUSES', 1000),
    total: listings,
    largest: num('BENCH_SCALE_LARGEST', Math.round(listings / 20)),
    chatPairs: 2,
    log: (line) => console.log(line),
  });
  console.log(`PROBE_DB_URL=${created.url}`);
  return created.url;
}

async function main(): Promise<void> {
  const url = await dataUrl();
  const admin = new pg.Client({ connectionString: BASE.replace(/\/[^/]*$/, new URL(url).pathname) });
  await admin.connect();
  const largest = await admin.query<{ campus_id: number; n: string }>(
    'select campus_id, count(*) as n from listings group by 1 order by 2 desc limit 1',
  );
  const campusId = largest.rows[0]!.campus_id;
  console.log(`largest campus ${campusId}: ${largest.rows[0]!.n} listings`);
  const db = openDb({ dataDir: os.tmpdir(), databaseUrl: url });
  const engine = new PostgresSearch(db, () => Date.now());
  const only = env.PROBE_ONLY;
  const queries = only ? [only] : BENCH_QUERIES;
  const rand = seededRandom(99);
  const plain: number[] = [];
  const filtered: number[] = [];
  const perQuery = new Map<string, number[]>();
  const slowFiltered: Array<{ q: string; f: SearchFilters; ms: number }> = [];
  await inCampus(campusId, async () => {
    for (const q of queries) await engine.search(campusId, q, {}, 21); // warm
    for (let r = 0; r < num('PROBE_ROUNDS', 3); r++) {
      for (const q of queries) {
        let t = performance.now();
        await engine.search(campusId, q, {}, 21);
        const ms = performance.now() - t;
        plain.push(ms);
        perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
        const f = randomFilters(rand);
        t = performance.now();
        await engine.search(campusId, q, f, 21);
        filtered.push(performance.now() - t);
        slowFiltered.push({ q, f, ms: performance.now() - t });
      }
    }
    if (env.PROBE_EXPLAIN) {
      const top = await engine.search(campusId, env.PROBE_EXPLAIN, {}, 21);
      console.log(
        `top of "${env.PROBE_EXPLAIN}": ${top.map((h) => `${h.id}:${h.score.toFixed(4)}`).join(' ')}`,
      );
    }
  });
  const fmt = (xs: number[]) => {
    const p = percentiles(xs);
    return `p50 ${p.p50.toFixed(1)} / p95 ${p.p95.toFixed(1)} / max ${Math.max(...xs).toFixed(1)} ms`;
  };
  console.log(`plain search: ${fmt(plain)}`);
  console.log(`with filters: ${fmt(filtered)}`);
  console.log(`all: ${fmt([...plain, ...filtered])}`);
  for (const [q, xs] of [...perQuery].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1])))
    console.log(`  ${q.padEnd(20)} ${xs.map((x) => x.toFixed(0)).join(' / ')} ms`);
  for (const { q, f, ms } of slowFiltered.sort((a, b) => b.ms - a.ms).slice(0, 6))
    console.log(`  slowest with filters: ${ms.toFixed(0)} ms "${q}" ${JSON.stringify(f)}`);
  await db.close();
  await admin.end();
}

await main();
