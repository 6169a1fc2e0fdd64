import {
  CATEGORIES,
  LIMITS,
  MESSAGES,
  SEARCH_QUERY_MAX,
  dollarsToCents,
  isCategory,
  type Category,
} from '@campus/contract';
import { badRequest } from '../http/errors.js';

/** Raw query string as Fastify parses it: repeated keys arrive as arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

export type Cursor = { kind: 'browse'; id: number } | { kind: 'search'; score: number; id: number };

export interface PageParams {
  limit: number;
  cursor: Cursor | undefined;
}

export interface FilterParams {
  categories: Category[];
  minCents: number | undefined;
  maxCents: number | undefined;
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
    cursor.kind === 'browse' ? { k: 'b', i: cursor.id } : { k: 's', s: cursor.score, i: cursor.id };
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
  const b = body as { k?: unknown; i?: unknown; s?: unknown } | null;
  const idOk = typeof b?.i === 'number' && Number.isSafeInteger(b.i) && b.i > 0;
  if (kind === 'browse' && b?.k === 'b' && idOk) return { kind, id: b.i as number };
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
    if (cents === null) throw badRequest(MESSAGES.invalidPriceFilter);
    return cents;
  };
  const minCents = price('priceMin');
  const maxCents = price('priceMax');
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) {
    throw badRequest(MESSAGES.invalidPriceFilter);
  }
  // Every category chosen is the same as none: keep the query simple.
  const list = categories.size === CATEGORIES.length ? [] : [...categories];
  return { categories: list, minCents, maxCents };
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
