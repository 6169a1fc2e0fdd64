import type { Category, Sort } from '@campus/contract';

/** The shapes the search index takes and answers (search-index.ts). */

/** What the index keeps of a listing. */
export interface SearchDoc {
  id: number;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  isSold: boolean;
  condition?: string | null;
  courseCode?: string | null;
  isbn?: string | null;
}

export interface SearchFilters {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
  conditions?: readonly string[];
  courseCode?: string;
  isbn?: string;
  /**
   * Sellers the viewer blocked (safety). PostgresSearch leaves them out in its query; the memory
   * index knows no sellers, so its caller (pages.ts) drops their hits after ranking.
   */
  excludeSellers?: readonly number[];
}

/**
 * Position in a result list: for relevance, results come after (score, id) in (score asc, id
 * desc) order; for the other sorts `score` holds the sort key (see SortedAfter).
 */
export interface SearchAfter {
  score: number;
  id: number;
}

/** Orders other than relevance: newest (id desc), price_asc (price, id asc), price_desc (price, id desc). */
export type ListSort = Exclude<Sort, 'relevance'>;

/** Position in a sorted result list: after (price, id) in the sort's order; price unused for newest. */
export interface SortedAfter {
  price: number;
  id: number;
}

export interface SortedHit {
  id: number;
  price: number;
}

export interface SearchHit {
  id: number;
  score: number;
}

export interface SearchStats {
  candidates: number;
  scored: number;
  /** Milliseconds spent counting shared bigrams, bucketing candidates, scoring. */
  countMs?: number;
  bucketMs?: number;
  scoreMs?: number;
}
