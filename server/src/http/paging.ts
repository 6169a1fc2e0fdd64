import { DB_INT_MAX, LIMITS, MESSAGES, isDbId } from '@campus/contract';
import { badRequest } from './errors.js';

/**
 * Keyset paging for every list the API answers: `limit`, an opaque `cursor` (base64url JSON of
 * the last row's sort key and id) and the next page's URL in a `Link` header.
 */

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

/** The last value of a query parameter, trimmed; undefined when absent or blank. */
export function queryValue(raw: RawQuery, key: string): string | undefined {
  const v = raw[key];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** `limit` (1..LIMITS.pageMax, default LIMITS.pageDefault) and an opaque `cursor`. */
export function parsePage(raw: RawQuery, kind: Cursor['kind']): PageParams {
  const limitText = queryValue(raw, 'limit');
  let limit: number = LIMITS.pageDefault;
  if (limitText !== undefined) {
    if (!/^\d{1,4}$/.test(limitText)) throw badRequest(MESSAGES.invalidLimit);
    limit = Number(limitText);
    if (limit < 1 || limit > LIMITS.pageMax) throw badRequest(MESSAGES.invalidLimit);
  }
  const cursorText = queryValue(raw, 'cursor');
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

/** The Link header value pointing at the next page: same path and parameters, new cursor. */
export function nextLink(requestUrl: string, cursor: string): string {
  const q = requestUrl.indexOf('?');
  const path = q === -1 ? requestUrl : requestUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : requestUrl.slice(q + 1));
  params.set('cursor', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}

/** How route docs describe the `Link` header of a paged answer. */
export const LINK_HEADER_DOC = { link: 'The next page: `<url>; rel="next"` (absent on the last page)' };
