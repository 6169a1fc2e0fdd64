/**
 * Serialized answers of the hottest listing reads (first pages of browse, GET /listing/{id}),
 * the same for every caller, kept for PAGE_TTL_MS per process (docs/decisions.md, "Listings: hot
 * reads"). Every listing write in this process clears them; writes in another process show within
 * PAGE_TTL_MS. Tokens are cached by the shared authentication (accounts/token-cache.ts).
 */
export const PAGE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

export interface CachedAnswer {
  body: string;
  link: string | undefined;
  cachedAt: number;
}

export class HotCache {
  private answers = new Map<string, CachedAnswer>();

  answer(key: string): CachedAnswer | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.cachedAt >= PAGE_TTL_MS) {
      this.answers.delete(key);
      return undefined;
    }
    return hit;
  }

  remember(key: string, body: string, link: string | undefined): void {
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(key, { body, link, cachedAt: Date.now() });
  }

  /** Any listing write in this process. */
  listingsChanged(): void {
    this.answers.clear();
  }
}
