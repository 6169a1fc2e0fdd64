import { CATEGORIES } from '@campus/contract';
import { allPositions, editsFor, markBigramPositions, patternBigrams } from './bigram-filter.js';
import { exactCodeSlots, filterFn, groupsFor } from './filter-plan.js';
import { MAX_PATTERN, compilePattern, documentScore, keyScore, type ScoredFields } from './fuse-score.js';
import type { ListingColumns } from './index-columns.js';
import { longMatcher } from './long-query.js';
import type { ListSort, SearchFilters, SortedAfter, SortedHit } from './search-types.js';

/**
 * Every listing the query matches (a Fuse match or a course code / ISBN equal to the query)
 * passing the filters, in `sort` order after `after`, at most `limit`. The bigram filter marks
 * the candidates; they are walked in sort order (SortedSlots) and scored one by one until the
 * page is full, so a common word stops early and a rare one scores only its few candidates.
 */
export function searchSorted(
  columns: ListingColumns,
  query: string,
  filters: SearchFilters,
  sort: ListSort,
  limit: number,
  after?: SortedAfter,
): SortedHit[] {
  if (query.length === 0) return [];
  const allowed = filterFn(columns, filters);
  const exact = exactCodeSlots(columns, query, allowed);
  const matches = matcher(columns, query, filters);
  const ids = columns.ids.data;
  const prices = columns.prices.data;
  const hits: SortedHit[] = [];
  const take = (slot: number): boolean => {
    if (!allowed(slot)) return false;
    if (!exact.has(slot) && !matches(slot)) return false;
    hits.push({ id: ids[slot] as number, price: prices[slot] as number });
    return hits.length >= limit;
  };
  const { byId, byPrice } = columns;
  if (sort === 'newest') {
    const order = byId.slots();
    let i = after ? byId.lowerBound(after.id, 0) - 1 : order.length - 1;
    for (; i >= 0; i -= 1) if (take(order[i] as number)) break;
  } else if (sort === 'price_asc') {
    const order = byPrice.slots();
    let i = after ? byPrice.lowerBound(after.price, after.id + 1) : 0;
    for (; i < order.length; i += 1) if (take(order[i] as number)) break;
  } else {
    const order = byPrice.slots();
    let i = after ? byPrice.lowerBound(after.price, after.id) - 1 : order.length - 1;
    for (; i >= 0; i -= 1) if (take(order[i] as number)) break;
  }
  return hits;
}

/**
 * Whether a slot's text matches the query (Fuse threshold): the bigram cover refuses most
 * slots without scoring; long patterns are checked by Fuse itself.
 */
function matcher(columns: ListingColumns, query: string, filters: SearchFilters): (slot: number) => boolean {
  if (query.length > MAX_PATTERN) return longMatcher(columns, query);
  const p = compilePattern(query);
  const m = p.length;
  const fields = columns.fields;
  if (m === 1) return (slot) => documentScore(p, fields[slot] as ScoredFields) >= 0;
  const k = p.maxErrors;
  const all = allPositions(m);
  // Per slot, the pattern bigram positions name and description hold (as in SearchIndex.search),
  // then the keys that can still match.
  markBigramPositions(columns, patternBigrams(p), groupsFor(filters));
  const masks = columns.masks;
  const size = columns.size;
  const found = new Uint8Array(size);
  for (let slot = 0; slot < size; slot += 1) {
    const at = slot << 1;
    const xn = masks[at] as number;
    const xd = masks[at + 1] as number;
    if ((xn | xd) === 0) continue;
    masks[at] = 0;
    masks[at + 1] = 0;
    found[slot] = (editsFor(all & ~xn, k) <= k ? 1 : 0) | (editsFor(all & ~xd, k) <= k ? 2 : 0);
  }
  const catMatch = CATEGORIES.map((c) => keyScore(p, c.toLowerCase(), 0) >= 0);
  const cats = columns.cats;
  return (slot) => {
    const cat = cats[slot] as number;
    const keys = (found[slot] ?? 0) | ((cat < CATEGORIES.length ? catMatch[cat] : true) ? 4 : 0);
    return keys !== 0 && documentScore(p, fields[slot] as ScoredFields, keys) >= 0;
  };
}
