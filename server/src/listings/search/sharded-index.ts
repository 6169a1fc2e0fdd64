import { listOrder, mergeOrdered } from '../list-order.js';
import type { ListingRow } from '../store.js';
import type { ListingSearch } from './listing-search.js';
import type { SearchHit } from './search-index.js';

/** SearchIndex.search's order: score ascending, then newest (highest id) first. */
const byRelevance = (a: SearchHit, b: SearchHit): number => a.score - b.score || b.id - a.id;

/**
 * One search index split across threads (search + filters p95 ≤ 10 ms at 100k listings).
 * Each shard indexes the listings whose id leaves its remainder (search-docs-store.ts inShard) and
 * runs in its own worker thread, so one search scores the corpus on every core at once: at 100,000
 * listings a search's scoring on two threads took 0.52–0.55 of the time on one (docs/performance.md,
 * session 11).
 *
 * The answers are the single index's: a listing's score does not depend on the other listings
 * (Fuse.js scores each document alone), so the best `limit` after a cursor overall are among the
 * best `limit` after it in each shard; merging those in the index's own total order (ids break every
 * tie) and keeping the first `limit` gives the same list, page by page. sharded-index.test.ts
 * compares the two on every sort and cursor.
 *
 * Writes go to the shard that owns the listing, in the order they were made; a search asked after
 * a write reaches that shard after it, so it sees the write (WorkerSearchIndex keeps message order).
 */
export class ShardedSearchIndex implements ListingSearch {
  constructor(private readonly shards: readonly ListingSearch[]) {
    if (shards.length === 0) throw new Error('a sharded search index needs at least one shard');
  }

  async warm(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.warm()));
  }

  async search(...args: Parameters<ListingSearch['search']>): ReturnType<ListingSearch['search']> {
    const lists = await Promise.all(this.shards.map((s) => s.search(...args)));
    const [, , , limit] = args;
    return mergeOrdered(lists, byRelevance, limit);
  }

  async searchSorted(
    ...args: Parameters<ListingSearch['searchSorted']>
  ): ReturnType<ListingSearch['searchSorted']> {
    const lists = await Promise.all(this.shards.map((s) => s.searchSorted(...args)));
    const [, , , sort, limit] = args;
    return mergeOrdered(
      lists,
      listOrder(
        sort,
        (h) => h.price,
        (h) => h.id,
      ),
      limit,
    );
  }

  applyRow(row: ListingRow): void {
    this.owner(row.id).applyRow(row);
  }

  remove(id: number): void {
    this.owner(id).remove(id);
  }

  forget(id: number): void {
    this.owner(id).forget(id);
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.close()));
  }

  /** The shard holding a listing: inShard's rule, shard i of n holding ids ≡ i (mod n). */
  private owner(id: number): ListingSearch {
    return this.shards[id % this.shards.length] as ListingSearch;
  }
}
