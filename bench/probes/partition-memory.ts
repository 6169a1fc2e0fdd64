/**
 * Memory of many small search-index partitions against one large index (one partition per
 * campus, live-index.ts): builds PROBE_P indexes of PROBE_N listings each and prints the growth
 * of RSS, JS heap and ArrayBuffers, per partition too, since per-partition fixed costs are what
 * make 1,000 small campuses dearer than one index of the same listings.
 *
 * Run: `npx tsx --expose-gc bench/probes/partition-memory.ts` (PROBE_P 1000, PROBE_N 1000).
 */
import { SearchIndex } from '../../server/src/listings/search/search-index.js';
import { syntheticListings } from '../lib/corpus.js';

const P = Number(process.env.PROBE_P ?? 1000);
const N = Number(process.env.PROBE_N ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const settle = () => {
  for (let i = 0; i < 3; i += 1) gc();
  return process.memoryUsage();
};

// The same documents for every partition (as many campuses with similar listings): the corpus
// itself is built before the baseline so only the indexes are measured.
const docs = syntheticListings(N).map((l, i) => ({ id: i + 1, ...l, isSold: false }));
const before = settle();
const t0 = performance.now();
const partitions: SearchIndex[] = [];
for (let p = 0; p < P; p += 1) {
  const index = new SearchIndex();
  for (const d of docs) index.upsert({ ...d, id: p * N + d.id });
  // As a campus's partition is after the live index's load (live-index.ts).
  index.compact();
  partitions.push(index);
}
const buildMs = performance.now() - t0;
const after = settle();
const grow = (k: 'rss' | 'heapUsed' | 'arrayBuffers') => after[k] - before[k];
console.log(`P=${P} N=${N} built in ${(buildMs / 1000).toFixed(1)} s`);
for (const k of ['rss', 'heapUsed', 'arrayBuffers'] as const)
  console.log(`  ${k}: +${mb(grow(k))} MB (${(grow(k) / P / 1024).toFixed(1)} KB per partition)`);
// Peak as well: a compaction holds the old and the new arrays for a moment.
console.log(`  peak rss: ${mb(process.resourceUsage().maxRSS * 1024)} MB (whole process)`);
// Keep the partitions alive through the measurement, and check they answer.
console.log(
  `  hits for "textbook" in the last partition: ${partitions.at(-1)?.search('textbook', {}, 21).length}`,
);
