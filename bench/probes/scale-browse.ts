/**
 * Probe: the listings browse with filters (`/listings/filters`: categories and a price range,
 * newest first) on the scale benchmark's data in PostgreSQL, without HTTP — the "filter counts" of
 * scale.bench.ts. Uses the data scale-search.ts loaded:
 *
 *   PROBE_DB_URL=postgres://cm_bench_owner@…/cm_probe_scale_… npx tsx bench/probes/scale-browse.ts
 *
 * Runs under the campus policies as the app does (the owner role, row security enforced), on the
 * largest campus. PROBE_ROUNDS (3) times the 30 filter sets of the benchmark's generator;
 * PROBE_ONLY (JSON: categories, minCents, maxCents) times one set instead.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { CATEGORIES, PRICE_BUCKETS, bucketsToRange, type Category } from '@campus/contract';
import { openDb } from '../../server/src/db/connection.js';
import { acrossCampuses, inCampus } from '../../server/src/db/campus-scope.js';
import { browse, type BrowseQuery } from '../../server/src/listings/browse-store.js';
import { percentiles } from '../targets/listings-report.js';

const env = process.env;
const url = env.PROBE_DB_URL;
if (!url) throw new Error('PROBE_DB_URL: the database bench/probes/scale-search.ts loaded');

function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The filters of listings-queries.ts `filterParams`, as a browse query. */
function randomFilters(rand: () => number): Pick<BrowseQuery, 'categories' | 'minCents' | 'maxCents'> {
  const categories: Category[] = [];
  for (let i = 0; i < Math.floor(rand() * 3); i++)
    categories.push(CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category);
  const range = bucketsToRange(PRICE_BUCKETS.filter(() => rand() < 0.35).map((b) => b.id));
  const f: Pick<BrowseQuery, 'categories' | 'minCents' | 'maxCents'> = {};
  if (categories.length) f.categories = categories;
  if (range.priceMin !== undefined) f.minCents = range.priceMin * 100;
  if (range.priceMax !== undefined) f.maxCents = range.priceMax * 100;
  if (!f.categories && f.minCents === undefined && f.maxCents === undefined) f.categories = ['BOOKS'];
  return f;
}

const db = openDb({ dataDir: os.tmpdir(), databaseUrl: url });
await db.enforceRowSecurity(false);
const { rows } = await acrossCampuses(() =>
  sql<{ campus_id: number }>`
    select campus_id from listings group by 1 order by count(*) desc limit 1`.execute(db.kysely),
);
const campusId = rows[0]!.campus_id;
const rand = seededRandom(7);
// PROBE_ONLY='{"minCents":3701,"maxCents":3702}' times one filter set instead.
const sets = env.PROBE_ONLY
  ? [JSON.parse(env.PROBE_ONLY) as ReturnType<typeof randomFilters>]
  : Array.from({ length: 30 }, () => randomFilters(rand));
const times: number[] = [];
const slow: Array<{ ms: number; f: object }> = [];
await inCampus(campusId, async () => {
  const run = (f: object) =>
    browse(db.kysely, { ...f, campusId, includeSold: false, now: Date.now(), limit: 21 }, 'postgres');
  for (const f of sets) await run(f); // warm
  for (let r = 0; r < Number(env.PROBE_ROUNDS ?? 3); r++) {
    for (const f of sets) {
      const t = performance.now();
      await run(f);
      const ms = performance.now() - t;
      times.push(ms);
      slow.push({ ms, f });
    }
  }
});
const p = percentiles(times);
console.log(
  `browse with filters, campus ${campusId}: p50 ${p.p50.toFixed(1)} / p95 ${p.p95.toFixed(1)} / max ${Math.max(...times).toFixed(1)} ms (${times.length} pages)`,
);
for (const { ms, f } of slow.sort((a, b) => b.ms - a.ms).slice(0, 4))
  console.log(`  slowest: ${ms.toFixed(1)} ms ${JSON.stringify(f)}`);
await db.close();
