import type { Db } from '../../db/connection.js';
import * as store from '../store.js';
import type { ListingSearch } from './listing-search.js';
import {
  SearchIndex,
  type ListSort,
  type SearchAfter,
  type SearchFilters,
  type SearchHit,
  type SortedAfter,
  type SortedHit,
} from './search-index.js';

export interface LiveIndexOptions {
  /** How often, at most, a search looks for changes made by other processes. */
  refreshMs?: number;
  /** Re-read rows changed this long before the newest change seen (clock skew between processes). */
  lagMs?: number;
  /** Index only this shard of the listings (one thread of a ShardedSearchIndex); default all. */
  shard?: store.SearchShard;
}

/**
 * The search index of one app process, kept in step with the database:
 * - built from the listings table on first use (or at start-up, see warm());
 * - this process's own writes are applied at once (created, sold toggled, deleted);
 * - writes by other processes (scaled out on PostgreSQL) arrive through a throttled
 *   `updated_at >= watermark - lag` read; rows deleted elsewhere are dropped when a search
 *   result no longer finds them in the database (ListingsService.search).
 */
export class LiveSearchIndex implements ListingSearch {
  readonly index = new SearchIndex();
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private watermark = 0;
  private lastRefresh = 0;
  private readonly refreshMs: number;
  private readonly lagMs: number;
  private readonly shard: store.SearchShard | undefined;

  constructor(
    private readonly db: Db,
    options: LiveIndexOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 1000;
    this.lagMs = options.lagMs ?? 10_000;
    this.shard = options.shard;
  }

  /** Builds the index now (start-up) instead of on the first search. */
  warm(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  async search(
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
  ): Promise<SearchHit[]> {
    await this.fresh();
    return this.index.search(query, filters, limit, after);
  }

  /** Every match in newest or price order (SearchIndex.searchSorted). */
  async searchSorted(
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): Promise<SortedHit[]> {
    await this.fresh();
    return this.index.searchSorted(query, filters, sort, limit, after);
  }

  /** Built, and other processes' changes read if the last read is older than refreshMs. */
  private async fresh(): Promise<void> {
    await this.warm();
    if (performance.now() - this.lastRefresh >= this.refreshMs) {
      this.refreshing ??= this.refresh().finally(() => {
        this.refreshing = undefined;
      });
      await this.refreshing;
    }
  }

  applyRow(row: store.ListingRow): void {
    if (!store.inShard(row.id, this.shard)) return;
    this.index.upsert(store.toSearchDoc(row));
    this.watermark = Math.max(this.watermark, Number(row.updated_at));
  }

  remove(id: number): void {
    this.index.remove(id);
  }

  /** A search hit the database no longer shows as unsold: sold or deleted elsewhere. */
  forget(id: number): void {
    this.index.setSold(id, true);
  }

  /** Nothing to release: the database belongs to the caller. */
  async close(): Promise<void> {}

  private async load(): Promise<void> {
    const rows = await store.searchDocs(this.db.kysely, undefined, this.shard);
    for (const row of rows) {
      this.index.upsert(row);
      if (row.updatedAt > this.watermark) this.watermark = row.updatedAt;
    }
    this.lastRefresh = performance.now();
  }

  private async refresh(): Promise<void> {
    this.lastRefresh = performance.now();
    const rows = await store.searchDocs(this.db.kysely, this.watermark - this.lagMs, this.shard);
    for (const row of rows) {
      this.index.upsert(row);
      if (row.updatedAt > this.watermark) this.watermark = row.updatedAt;
    }
  }
}
