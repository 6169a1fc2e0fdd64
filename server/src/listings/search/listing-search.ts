import type { ListingRow } from '../store.js';
import type {
  ListSort,
  SearchAfter,
  SearchFilters,
  SearchHit,
  SortedAfter,
  SortedHit,
} from './search-index.js';

/**
 * The search engine seam: what the listings service asks of search, whichever engine answers
 * (SEARCH_ENGINE, chosen in app.ts). Every search names the campus it searches (features.md §E) and
 * sees only that campus's listings. Two engines implement it:
 * - the memory index (ListingSearch below: LiveSearchIndex in this thread, WorkerSearchIndex and
 *   ShardedSearchIndex in worker threads), which keeps its own copy of the listings;
 * - PostgresSearch (postgres-search.ts), which searches the listings table itself and keeps nothing.
 */
export interface SearchEngine {
  /** Builds what the engine needs now (start-up) instead of on the first search. */
  warm(): Promise<void>;
  /**
   * The best `limit` listings for `query` passing the filters, ranked (score ascending, newest first
   * on ties), after `after`.
   */
  search(
    campusId: number,
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
  ): Promise<SearchHit[]>;
  /** Every listing the query matches, in a sort order other than relevance, after `after`. */
  searchSorted(
    campusId: number,
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): Promise<SortedHit[]>;
  /** Releases what the engine holds; searches fail afterwards. */
  close(): Promise<void>;
}

/** Whether an engine keeps a copy of the listings that the module's writes must reach. */
export function keepsCopy(engine: SearchEngine): engine is ListingSearch {
  return 'applyRow' in engine;
}

/**
 * The memory engine: a search index holding a copy of the listings, which the module's writes
 * reach at once. Two kinds answer: LiveSearchIndex in this thread (tests, and the worker itself) and
 * WorkerSearchIndex, which keeps a LiveSearchIndex in a worker thread (the server: worker-index.ts
 * says why). The index keeps each campus's listings apart and scores only that campus's.
 */
export interface ListingSearch extends SearchEngine {
  /** A listing this process wrote (its campus's partition): searches asked after this call see it. */
  applyRow(row: ListingRow): void;
  /** A listing this process deleted. */
  remove(id: number): void;
  /** A hit the database no longer shows as unsold (sold or deleted by another process). */
  forget(id: number): void;
}
