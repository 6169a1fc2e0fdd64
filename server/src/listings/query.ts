import {
  CATEGORIES,
  DB_INT_MAX,
  LIMITS,
  MESSAGES,
  SEARCH_QUERY_MAX,
  SELLING_MESSAGES,
  dollarsToCents,
  isCategory,
  isDbId,
  isCondition,
  isSort,
  normalizeCourseCode,
  normalizeIsbn,
  type Category,
  type Condition,
  type Sort,
} from '@campus/contract';
import { badRequest } from '../http/errors.js';

/** Raw query string as Fastify parses it: repeated keys arrive as arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** Keyset positions: newest (id), relevance (score, id), the price sorts (price in cents, id). */
export type Cursor =
  | { kind: 'browse'; id: number }
  | { kind: 'search'; score: number; id: number }
  | { kind: 'price'; price: number; id: number };

export interface PageParams {
  limit: number;
  cursor: Cursor | undefined;
}

export interface FilterParams {
  categories: Category[];
  minCents: number | undefined;
  maxCents: number | undefined;
  conditions?: Condition[];
  courseCode?: string;
  isbn?: string;
}

function single(raw: RawQuery, key: string): string | undefined {
  const v = raw[key];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** `limit` (1..LIMITS.pageMax, default LIMITS.pageDefault) and an opaque `cursor`. */
export function parsePage(raw: RawQuery, kind: Cursor['kind']): PageParams {
  const limitText = single(raw, 'limit');
  let limit: number = LIMITS.pageDefault;
  if (limitText !== undefined) {
    if (!/^\d{1,4}$/.test(limitText)) throw badRequest(MESSAGES.invalidLimit);
    limit = Number(limitText);
    if (limit < 1 || limit > LIMITS.pageMax) throw badRequest(MESSAGES.invalidLimit);
  }
  const cursorText = single(raw, 'cursor');
  const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText, kind);
  return { limit, cursor };
}

export function encodeCursor(cursor: Cursor): string {
  const body =
    cursor.kind === 'browse'
      ? { k: 'b', i: cursor.id }
      : cursor.kind === 'price'
        ? { k: 'p', p: cursor.price, i: cursor.id }
        : { k: 's', s: cursor.score, i: cursor.id };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeCursor(text: string, kind: Cursor['kind']): Cursor {
  let body: unknown;
  try {
    if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('shape');
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(MESSAGES.invalidCursor);
  }
  const b = body as { k?: unknown; i?: unknown; s?: unknown; p?: unknown } | null;
  const idOk = typeof b?.i === 'number' && isDbId(b.i);
  if (kind === 'browse' && b?.k === 'b' && idOk) return { kind, id: b.i as number };
  if (
    kind === 'price' &&
    b?.k === 'p' &&
    idOk &&
    typeof b.p === 'number' &&
    Number.isSafeInteger(b.p) &&
    b.p >= 0 &&
    b.p <= DB_INT_MAX
  ) {
    return { kind, price: b.p, id: b.i as number };
  }
  if (
    kind === 'search' &&
    b?.k === 's' &&
    idOk &&
    typeof b.s === 'number' &&
    Number.isFinite(b.s) &&
    b.s >= 0
  ) {
    return { kind, score: b.s, id: b.i as number };
  }
  throw badRequest(MESSAGES.invalidCursor);
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
    const text = single(raw, key);
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
  const filters: FilterParams = { categories: list, minCents, maxCents };
  if (conditions.size > 0) filters.conditions = [...conditions];
  const courseText = single(raw, 'courseCode');
  if (courseText !== undefined) {
    const code = normalizeCourseCode(courseText);
    if (!code) throw badRequest(SELLING_MESSAGES.courseCodeInvalid);
    filters.courseCode = code;
  }
  const isbnText = single(raw, 'isbn');
  if (isbnText !== undefined) {
    const isbn = normalizeIsbn(isbnText);
    if (!isbn) throw badRequest(SELLING_MESSAGES.isbnInvalid);
    filters.isbn = isbn;
  }
  return filters;
}

/** `sort` (relevance | newest | price_asc | price_desc), default as given. */
export function parseSort(raw: RawQuery, fallback: Sort): Sort {
  const text = single(raw, 'sort');
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

/** The Link header value pointing at the next page: same path and parameters, new cursor. */
export function nextLink(requestUrl: string, cursor: string): string {
  const q = requestUrl.indexOf('?');
  const path = q === -1 ? requestUrl : requestUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : requestUrl.slice(q + 1));
  params.set('cursor', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}
