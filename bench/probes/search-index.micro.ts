/**
 * The search index alone (no HTTP, no database): the benchmark's corpus and query mix, timed
 * in-process, to iterate on the index quickly. `npm run bench` gives the figures that count;
 * this one only says where a change moves the index's own time. It also prints a checksum of
 * every result list, so two versions of the index can be compared for identical answers.
 *
 * Run: `npm run bench:search` (MICRO_LISTINGS, MICRO_ROUNDS, MICRO_SLOWEST).
 */
import { PRICE_BUCKETS, bucketsToRange, CATEGORIES, type Category } from '@campus/contract';
import { createHash } from 'node:crypto';
import { seededRandom } from '../../server/test/random.js';
import { SearchIndex, type SearchFilters } from '../../server/src/listings/search/search-index.js';
import { BENCH_QUERIES, syntheticListings } from '../lib/corpus.js';

const LISTINGS = Number(process.env.MICRO_LISTINGS ?? 100_000);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 5);
const SLOWEST = Number(process.env.MICRO_SLOWEST ?? 8);
const LIMIT = 21;

/** The benchmark's random filters (targets/listings.bench.ts filterParams), as index filters. */
function randomFilters(rand: () => number): SearchFilters {
  const categories: Category[] = [];
  const nCats = Math.floor(rand() * 3);
  for (let i = 0; i < nCats; i += 1)
    categories.push(CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category);
  const buckets = PRICE_BUCKETS.filter(() => rand() < 0.35).map((b) => b.id);
  const range = bucketsToRange(buckets);
  const f: SearchFilters = {};
  if (categories.length) f.categories = categories;
  if (range.priceMin !== undefined) f.minCents = range.priceMin * 100;
  if (range.priceMax !== undefined) f.maxCents = range.priceMax * 100;
  if (!f.categories && f.minCents === undefined && f.maxCents === undefined) f.categories = ['BOOKS'];
  return f;
}

const index = new SearchIndex();
const soldRand = seededRandom(7);
syntheticListings(LISTINGS).forEach((l, i) => index.upsert({ id: i + 1, ...l, isSold: soldRand() < 0.1 }));

const rand = seededRandom(99);
const requests: Array<{ query: string; filters: SearchFilters }> = [];
for (let r = 0; r < ROUNDS; r += 1)
  for (const q of BENCH_QUERIES) {
    requests.push({ query: q, filters: {} });
    requests.push({ query: q, filters: randomFilters(rand) });
  }
// Warm-up over every request shape, untimed.
for (const { query, filters } of requests) index.search(query, filters, LIMIT);

const hash = createHash('sha256');
const timed: Array<{ ms: number; label: string; filtered: boolean }> = [];
// CPU time of the whole timed loop as well: on a shared machine wall times include waiting for a core.
const cpu = process.cpuUsage();
for (const { query, filters } of requests) {
  const t = performance.now();
  const hits = index.search(query, filters, LIMIT);
  const ms = performance.now() - t;
  hash.update(JSON.stringify(hits));
  timed.push({ ms, label: `${query} ${JSON.stringify(filters)}`, filtered: Object.keys(filters).length > 0 });
}
const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};
for (const filtered of [false, true]) {
  const ms = timed.filter((t) => t.filtered === filtered).map((t) => t.ms);
  console.log(
    `${filtered ? 'search + filters' : 'search'}: p50 ${pct(ms, 50).toFixed(2)} p95 ${pct(ms, 95).toFixed(2)} p99 ${pct(ms, 99).toFixed(2)} ms, total ${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms`,
  );
}
for (const t of [...timed].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST))
  console.log(`  ${t.ms.toFixed(2)} ms ${t.label}`);
console.log(`CPU time of the timed loop ${cpuMs.toFixed(0)} ms (${requests.length} searches)`);
console.log(`results checksum ${hash.digest('hex').slice(0, 16)}`);
