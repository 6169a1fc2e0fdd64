import { FUZZY_SEARCH } from '@campus/contract';
import Fuse from 'fuse.js';
import { GROUPS, type ListingColumns } from './index-columns.js';
import { postingRanges } from './postings.js';
import type { SearchAfter, SearchHit } from './search-types.js';
import { TopK } from './top-k.js';

/**
 * Patterns over 32 characters (fuse-score.ts MAX_PATTERN), which the exact scorer does not take:
 * Fuse.js itself ranks them, over the documents sharing most bigrams with the query, so their
 * results are approximate (docs/decisions.md).
 */

/** Candidate cap for patterns longer than 32 characters, which are scored by Fuse.js itself. */
const LONG_QUERY_CANDIDATES = 2000;

const fuseOptions = () => ({
  keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
  threshold: FUZZY_SEARCH.threshold,
  ignoreLocation: FUZZY_SEARCH.ignoreLocation,
});

/** Patterns over 32 characters: Fuse.js itself over the documents sharing most trigrams. */
export function searchLong(
  columns: ListingColumns,
  query: string,
  allowed: (slot: number) => boolean,
  limit: number,
  after?: SearchAfter,
): SearchHit[] {
  const lower = query.toLowerCase();
  const grams = new Set<number>();
  for (let i = 0; i + 1 < lower.length; i += 1)
    grams.add(lower.charCodeAt(i) * 65536 + lower.charCodeAt(i + 1));
  const counts = new Map<number, number>();
  const ranges = postingRanges();
  for (const g of grams) {
    for (let group = 0; group < GROUPS; group += 1) {
      const n = columns.postings.ranges(g * GROUPS + group, ranges);
      for (let r = 0; r < n; r += 1) {
        const data = ranges.data[r] as Int32Array;
        for (let i = ranges.from[r] as number; i < (ranges.to[r] as number); i += 1) {
          const slot = (data[i] as number) >>> 3;
          counts.set(slot, (counts.get(slot) ?? 0) + 1);
        }
      }
    }
  }
  const ids = columns.ids.data;
  const slots = [...counts.entries()]
    .filter(([slot]) => allowed(slot))
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, LONG_QUERY_CANDIDATES)
    .map(([slot]) => slot)
    .sort((a, b) => (ids[b] as number) - (ids[a] as number));
  const fuse = new Fuse(
    slots.map((s) => columns.raw[s]),
    { ...fuseOptions(), includeScore: true },
  );
  const top = new TopK(limit, after);
  for (const r of fuse.search(query)) top.offer(r.score ?? 1, ids[slots[r.refIndex] as number] as number);
  return top.sorted();
}

/** Whether a slot's text matches a pattern over 32 characters, as Fuse.js decides. */
export function longMatcher(columns: ListingColumns, query: string): (slot: number) => boolean {
  return (slot) => {
    const raw = columns.raw[slot];
    if (!raw) return false;
    const fuse = new Fuse([raw], fuseOptions());
    return fuse.search(query).length > 0;
  };
}
