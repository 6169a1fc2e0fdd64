import { acrossCampuses } from '../../db/campus-scope.js';
import type { Db } from '../../db/connection.js';
import {
  inShard,
  searchDocs,
  toSearchDoc,
  type CampusSearchDoc,
  type SearchShard,
} from '../search-docs-store.js';
import type { ListingRow } from '../store.js';
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
  shard?: SearchShard;
}

/**
 * The search index of one app process, kept in step with the database:
 * - one SearchIndex per campus (features.md §E): a search names its campus and scores only that
 *   campus's listings, never another's;
 * - built from the listings table on first use (or at start-up, see warm()), read across campuses
 *   once and split by campus; other processes' changes are read the same way;
 * - this process's own writes are applied at once (created, sold toggled, deleted);
 * - writes by other processes (scaled out on PostgreSQL) arrive through a throttled
 *   `updated_at >= watermark - lag` read; rows deleted elsewhere are dropped when a search
 *   result no longer finds them in the database (ListingsService.search).
 */
export class LiveSearchIndex implements ListingSearch {
  /** Each campus's listings, by campus id; a campus with none yet has no partition. */
  private readonly partitions = new Map<number, SearchIndex>();
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private watermark = 0;
  private lastRefresh = 0;
  private readonly refreshMs: number;
  private readonly lagMs: number;
  private readonly shard: SearchShard | undefined;

  constructor(
    private readonly db: Db,
    options: LiveIndexOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 1000;
    this.lagMs = options.lagMs ?? 10_000;
    this.shard = options.shard;
  }

  /**
   * Builds the index now (start-up) instead of on the first search. A load that failed (the
   * database away) is not kept: the next search or warm() loads again.
   */
  warm(): Promise<void> {
    this.loading ??= this.load().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  async search(
    campusId: number,
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
  ): Promise<SearchHit[]> {
    await this.fresh();
    return this.partitions.get(campusId)?.search(query, filters, limit, after) ?? [];
  }

  /** Every match in newest or price order (SearchIndex.searchSorted). */
  async searchSorted(
    campusId: number,
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): Promise<SortedHit[]> {
    await this.fresh();
    return this.partitions.get(campusId)?.searchSorted(query, filters, sort, limit, after) ?? [];
  }

  /** One campus's partition, if it has one (tests check what each campus's index holds). */
  partition(campusId: number): SearchIndex | undefined {
    return this.partitions.get(campusId);
  }

  /** The partition a campus's listings go to, made on its first listing. */
  private partitionFor(campusId: number): SearchIndex {
    let index = this.partitions.get(campusId);
    if (!index) {
      index = new SearchIndex();
      this.partitions.set(campusId, index);
    }
    return index;
  }

  private upsert(doc: CampusSearchDoc): void {
    this.partitionFor(doc.campusId).upsert(doc);
    if (doc.updatedAt > this.watermark) this.watermark = doc.updatedAt;
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

  applyRow(row: ListingRow): void {
    if (!inShard(row.id, this.shard)) return;
    this.upsert({
      ...toSearchDoc(row),
      campusId: Number(row.campus_id),
      updatedAt: Number(row.updated_at),
    });
  }

  /** Ids are unique across campuses: whichever partition holds the listing drops it. */
  remove(id: number): void {
    for (const index of this.partitions.values()) if (index.has(id)) index.remove(id);
  }

  /** A search hit the database no longer shows as unsold: sold or deleted elsewhere. */
  forget(id: number): void {
    for (const index of this.partitions.values()) if (index.has(id)) index.setSold(id, true);
  }

  /** Nothing to release: the database belongs to the caller. */
  async close(): Promise<void> {}

  /**
   * Every campus's listings, read in one pass across campuses (on PostgreSQL a read in one
   * campus's scope would see only that campus's rows, and an unscoped one none) and split by campus.
   */
  private async load(): Promise<void> {
    const rows = await acrossCampuses(() => searchDocs(this.db.kysely, undefined, this.shard));
    for (const row of rows) this.upsert(row);
    // Small campuses' posting lists into one array each (later upserts compact as they grow).
    for (const index of this.partitions.values()) index.compact();
    this.lastRefresh = performance.now();
  }

  private async refresh(): Promise<void> {
    this.lastRefresh = performance.now();
    const since = this.watermark - this.lagMs;
    const rows = await acrossCampuses(() => searchDocs(this.db.kysely, since, this.shard));
    for (const row of rows) this.upsert(row);
  }
}
