import type { RenderedListings } from './personalise.js';
import { encodeCursor, type PageParams } from '../http/paging.js';

/**
 * Serialized answers of the hottest listing reads (first pages of browse, GET /listing/{id}),
 * the same for every caller, kept for PAGE_TTL_MS per process (docs/decisions.md, "Listings: hot
 * reads"). Every listing write in this process clears them; writes in another process show within
 * PAGE_TTL_MS. Tokens are cached by the shared authentication (accounts/token-cache.ts).
 *
 * Keys are built from the parsed, validated parameters in a fixed order (`cacheKey`), never from
 * the raw URL: junk query parameters cannot mint new entries. The cache is
 * bounded by entries and by bytes; the oldest entries go first.
 */
export const PAGE_TTL_MS = 1_000;
export const HOT_CACHE_MAX_ENTRIES = 2_000;
/** Bytes of cached JSON (the plain body, the personalisable rendering and its UTF-8 bytes). */
export const HOT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export interface CachedAnswer {
  body: string;
  link: string | undefined;
  cachedAt: number;
  /** The same answer ready to personalise per caller (savedByMe, saveCount: personalise.ts). */
  rendered?: RenderedListings;
  bytes: number;
}

/**
 * The canonical form of a page read: the route's path as the server names it and the page
 * parameters it understood, in a fixed order. Also the base of the next page's Link header, so
 * one cached answer fits every request that maps to the key.
 */
export function cacheKey(path: string, page: PageParams): string {
  const cursor = page.cursor ? `&cursor=${encodeCursor(page.cursor)}` : '';
  return `${path}?limit=${page.limit}${cursor}`;
}

export class HotCache {
  /** Insertion order is age order: Map iterates oldest first. */
  private answers = new Map<string, CachedAnswer>();
  private totalBytes = 0;

  constructor(
    private readonly maxEntries = HOT_CACHE_MAX_ENTRIES,
    private readonly maxBytes = HOT_CACHE_MAX_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.answers.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  answer(key: string): CachedAnswer | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.cachedAt >= PAGE_TTL_MS) {
      this.drop(key, hit);
      return undefined;
    }
    return hit;
  }

  remember(key: string, body: string, link: string | undefined, rendered?: RenderedListings): void {
    // UTF-16 strings: 2 bytes a code unit; the rendering holds about the same text again, and its
    // UTF-8 copy (plainBytes, sent to callers with nothing to personalise) once more.
    const renderedBytes = rendered ? body.length * 2 + Buffer.byteLength(body) : 0;
    const bytes = body.length * 2 + renderedBytes + key.length * 2;
    if (bytes > this.maxBytes) return;
    const old = this.answers.get(key);
    if (old) this.drop(key, old);
    this.answers.set(key, { body, link, cachedAt: this.now(), rendered, bytes });
    this.totalBytes += bytes;
    for (const [oldestKey, oldest] of this.answers) {
      if (this.answers.size <= this.maxEntries && this.totalBytes <= this.maxBytes) break;
      this.drop(oldestKey, oldest);
    }
  }

  /** Any listing write in this process. */
  listingsChanged(): void {
    this.answers.clear();
    this.totalBytes = 0;
  }

  private drop(key: string, entry: CachedAnswer): void {
    this.answers.delete(key);
    this.totalBytes -= entry.bytes;
  }
}
