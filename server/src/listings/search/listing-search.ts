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
 * What the listings service asks of its search index. Two kinds answer: LiveSearchIndex in this
 * thread (tests, and the worker itself) and WorkerSearchIndex, which keeps a LiveSearchIndex in a
 * worker thread (the server: worker-index.ts says why). Every search names the campus it searches
 * (features.md §E): the index keeps each campus's listings apart and scores only that campus's.
 */
export interface ListingSearch {
  /** Builds the index now (start-up) instead of on the first search. */
  warm(): Promise<void>;
  /**
   * SearchIndex.search once the index is built and fresh (without its diagnostic `stats`, which is
   * filled in place and could not cross to a worker).
   */
  search(
    campusId: number,
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
  ): Promise<SearchHit[]>;
  /** SearchIndex.searchSorted once the index is built and fresh. */
  searchSorted(
    campusId: number,
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): Promise<SortedHit[]>;
  /** A listing this process wrote (its campus's partition): searches asked after this call see it. */
  applyRow(row: ListingRow): void;
  /** A listing this process deleted. */
  remove(id: number): void;
  /** A hit the database no longer shows as unsold (sold or deleted by another process). */
  forget(id: number): void;
  /** Releases what the index holds (the worker thread); searches fail afterwards. */
  close(): Promise<void>;
}
