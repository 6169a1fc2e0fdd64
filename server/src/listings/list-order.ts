import type { ListSort } from './search/search-index.js';

/**
 * The orders of a listing list other than relevance, over any shape holding a price and an id:
 * newest (id descending), price_asc (price, then id ascending), price_desc (price, then id
 * descending). Ids break every tie, so the order is total: pages merged in it never disagree.
 */
export function listOrder<T>(
  sort: ListSort,
  price: (item: T) => number,
  id: (item: T) => number,
): (a: T, b: T) => number {
  if (sort === 'newest') return (a, b) => id(b) - id(a);
  if (sort === 'price_asc') return (a, b) => price(a) - price(b) || id(a) - id(b);
  return (a, b) => price(b) - price(a) || id(b) - id(a);
}

/** The first `limit` items of several lists, each already in `order`, in that order. */
export function mergeOrdered<T>(lists: readonly T[][], order: (a: T, b: T) => number, limit: number): T[] {
  return lists.flat().sort(order).slice(0, limit);
}
