import type { RenderedListings } from './personalise.js';
import { encodeCursor, type PageParams } from '../http/paging.js';

/**
 * Serialized answers of the hottest listing reads (first pages of browse, GET /listing/{id}),
 * the same for every caller of a campus, kept for PAGE_TTL_MS per process (docs/decisions.md,
 * "Listings: hot reads"). Answers are kept per campus (features.md §E): a student is only ever
 * served their own campus's, and a listing write in this process clears only its campus's. Writes
 * in another process show within PAGE_TTL_MS. Tokens are cached by the shared authentication
 * (accounts/token-cache.ts).
 *
 * Keys are built from the parsed, validated parameters in a fixed order (`cacheKey`), never from
 * the raw URL: junk query parameters cannot mint new entries. The cache is bounded by entries and
 * by bytes; the oldest entries go first.
 */
export const PAGE_TTL_MS = 1_000;
export const HOT_CACHE_MAX_ENTRIES = 2_000;
/** Bytes of cached JSON (the plain body, the personalisable rendering and its UTF-8 bytes). */
export const HOT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export interface CachedAnswer {
  /** The campus whose listings the answer shows (features.md §E): only its students are served it. */
  campusId: number;
  key: string;
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

/**
 * Each campus's answers apart (features.md §E): the same path read by students of two campuses is
 * two entries, and a write clears only its own campus's. The bounds hold over all campuses
 * together, so one busy campus can use the whole cache but never grow it.
 */
export class HotCache {
  private readonly byCampus = new Map<number, Map<string, CachedAnswer>>();
  /** Every entry in insertion order, which is age order: the oldest go first. */
  private readonly age = new Set<CachedAnswer>();
  private totalBytes = 0;

  constructor(
    private readonly maxEntries = HOT_CACHE_MAX_ENTRIES,
    private readonly maxBytes = HOT_CACHE_MAX_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.age.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Entries held for one campus (tests check the campuses stay apart). */
  sizeOf(campusId: number): number {
    return this.byCampus.get(campusId)?.size ?? 0;
  }

  answer(campusId: number, key: string): CachedAnswer | undefined {
    const hit = this.byCampus.get(campusId)?.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.cachedAt >= PAGE_TTL_MS) {
      this.drop(hit);
      return undefined;
    }
    return hit;
  }

  remember(
    campusId: number,
    key: string,
    body: string,
    link: string | undefined,
    rendered?: RenderedListings,
  ): void {
    // UTF-16 strings: 2 bytes a code unit; the rendering holds about the same text again, and its
    // UTF-8 copy (plainBytes, sent to callers with nothing to personalise) once more.
    const renderedBytes = rendered ? body.length * 2 + Buffer.byteLength(body) : 0;
    const bytes = body.length * 2 + renderedBytes + key.length * 2;
    if (bytes > this.maxBytes) return;
    let answers = this.byCampus.get(campusId);
    if (!answers) {
      answers = new Map();
      this.byCampus.set(campusId, answers);
    }
    const old = answers.get(key);
    if (old) this.drop(old);
    const entry: CachedAnswer = { campusId, key, body, link, cachedAt: this.now(), rendered, bytes };
    answers.set(key, entry);
    this.age.add(entry);
    this.totalBytes += bytes;
    for (const oldest of this.age) {
      if (this.age.size <= this.maxEntries && this.totalBytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** A listing write in this process: that campus's answers go (none given: every campus's). */
  listingsChanged(campusId?: number): void {
    if (campusId === undefined) {
      this.byCampus.clear();
      this.age.clear();
      this.totalBytes = 0;
      return;
    }
    const answers = this.byCampus.get(campusId);
    if (!answers) return;
    for (const entry of answers.values()) {
      this.age.delete(entry);
      this.totalBytes -= entry.bytes;
    }
    this.byCampus.delete(campusId);
  }

  private drop(entry: CachedAnswer): void {
    const answers = this.byCampus.get(entry.campusId);
    if (answers?.get(entry.key) === entry) answers.delete(entry.key);
    this.age.delete(entry);
    this.totalBytes -= entry.bytes;
  }
}
