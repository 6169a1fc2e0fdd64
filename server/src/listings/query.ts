import {
  CATEGORIES,
  DB_INT_MAX,
  MESSAGES,
  SEARCH_QUERY_MAX,
  SELLING_MESSAGES,
  dollarsToCents,
  isCategory,
  isCondition,
  isSort,
  normalizeCourseCode,
  normalizeIsbn,
  type Category,
  type Condition,
  type Sort,
} from '@campus/contract';
import { badRequest } from '../http/errors.js';
import { queryValue, type Cursor, type RawQuery } from '../http/paging.js';

/** Query parameters of listing lists: filters, sort, one category, search text (paging: http/paging.ts). */

// The listings service names its keyset positions through this file.
export type { Cursor } from '../http/paging.js';

export interface FilterParams {
  categories: Category[];
  minCents: number | undefined;
  maxCents: number | undefined;
  conditions?: Condition[];
  courseCode?: string;
  isbn?: string;
}

/** One category from a path segment, case-insensitive. */
export function parseCategory(value: string): Category {
  const upper = value.trim().toUpperCase();
  if (!isCategory(upper)) throw badRequest(MESSAGES.categoryInvalid);
  return upper;
}

/**
 * `categories` repeated (or comma-separated), case-insensitive; `priceMin` / `priceMax` in dollars
 * (at most 2 decimals), both inclusive. Empty values count as absent (spec §9: no bucket chosen
 * drops the price parameters).
 */
export function parseFilters(raw: RawQuery): FilterParams {
  const values =
    raw.categories === undefined ? [] : Array.isArray(raw.categories) ? raw.categories : [raw.categories];
  const categories = new Set<Category>();
  for (const v of values) {
    for (const part of v.split(',')) {
      if (part.trim() === '') continue;
      categories.add(parseCategory(part));
    }
  }
  const price = (key: string): number | undefined => {
    const text = queryValue(raw, key);
    if (text === undefined) return undefined;
    const cents = dollarsToCents(text);
    // Prices are integer cents in the database: beyond its range is a bad filter on both dialects.
    if (cents === null || cents > DB_INT_MAX) throw badRequest(MESSAGES.invalidPriceFilter);
    return cents;
  };
  const minCents = price('priceMin');
  const maxCents = price('priceMax');
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) {
    throw badRequest(MESSAGES.invalidPriceFilter);
  }
  // Every category chosen is the same as none: keep the query simple.
  const list = categories.size === CATEGORIES.length ? [] : [...categories];
  const conditions = new Set<Condition>();
  const rawConditions =
    raw.conditions === undefined ? [] : Array.isArray(raw.conditions) ? raw.conditions : [raw.conditions];
  for (const v of rawConditions) {
    for (const part of v.split(',')) {
      const c = part.trim().toUpperCase();
      if (c === '') continue;
      if (!isCondition(c)) throw badRequest(SELLING_MESSAGES.conditionInvalid);
      conditions.add(c);
    }
  }
  const filters: FilterParams = { categories: list, ...freeFilter(raw, minCents, maxCents) };
  if (conditions.size > 0) filters.conditions = [...conditions];
  const courseText = queryValue(raw, 'courseCode');
  if (courseText !== undefined) {
    const code = normalizeCourseCode(courseText);
    if (!code) throw badRequest(SELLING_MESSAGES.courseCodeInvalid);
    filters.courseCode = code;
  }
  const isbnText = queryValue(raw, 'isbn');
  if (isbnText !== undefined) {
    const isbn = normalizeIsbn(isbnText);
    if (!isbn) throw badRequest(SELLING_MESSAGES.isbnInvalid);
    filters.isbn = isbn;
  }
  return filters;
}

/** `sort` (relevance | newest | price_asc | price_desc), default as given. */
export function parseSort(raw: RawQuery, fallback: Sort): Sort {
  const text = queryValue(raw, 'sort');
  if (text === undefined) return fallback;
  if (!isSort(text)) throw badRequest(SELLING_MESSAGES.sortInvalid);
  return text;
}

/** The cursor kind a listing page uses for this sort (relevance needs a search query). */
export function cursorKindFor(sort: Sort, hasQuery: boolean): Cursor['kind'] {
  if (sort === 'price_asc' || sort === 'price_desc') return 'price';
  return sort === 'relevance' && hasQuery ? 'search' : 'browse';
}

export function parseSearchText(raw: RawQuery): string {
  const v = raw.query;
  const text = (Array.isArray(v) ? v[v.length - 1] : v) ?? '';
  if (text.length > SEARCH_QUERY_MAX * 4) throw badRequest(MESSAGES.searchQueryTooLong);
  const normalized = text.trim().replace(/\s+/g, ' ');
  if (normalized.length > SEARCH_QUERY_MAX) throw badRequest(MESSAGES.searchQueryTooLong);
  return normalized;
}

/**
 * `free=true` (features.md §H): free items only, which are exactly the listings priced 0 (a priced
 * listing's price is never 0), so the price filter every reader already has answers it. `free=false`
 * leaves free items out. Combined with a price range, both apply.
 */
function freeFilter(
  raw: RawQuery,
  minCents: number | undefined,
  maxCents: number | undefined,
): { minCents: number | undefined; maxCents: number | undefined } {
  const text = queryValue(raw, 'free')?.trim().toLowerCase();
  if (text === undefined || text === '') return { minCents, maxCents };
  if (text === 'true') {
    if (minCents !== undefined && minCents > 0) throw badRequest(MESSAGES.invalidPriceFilter);
    return { minCents: 0, maxCents: 0 };
  }
  if (text === 'false') return { minCents: Math.max(minCents ?? 1, 1), maxCents };
  throw badRequest('free must be true or false');
}
