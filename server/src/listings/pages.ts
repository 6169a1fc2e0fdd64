import type { Listing, Sort } from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import type { Cursor, FilterParams } from './query.js';
import { keepsCopy, type SearchEngine } from './search/listing-search.js';
import type { SearchFilters } from './search/search-index.js';
import { browse, type BrowseQuery, type BrowseSort } from './browse-store.js';
import * as store from './store.js';

export interface Page {
  listings: Listing[];
  next: Cursor | undefined;
}

/** A page of browsing as the service asks for it. */
export interface BrowseOptions extends SearchFilters {
  /** The viewer's campus (features.md §E): the page holds only its listings. */
  campusId: number;
  sort?: BrowseSort;
  limit: number;
  cursor: Cursor | undefined;
  /** Sellers the viewer blocked (safety). */
  excludeSellers?: readonly number[];
}

/** Pages of listings: browsing in the database, fuzzy search through the index, keyset-paged. */
export class ListingPages {
  constructor(
    private readonly ctx: AppContext,
    private readonly search: SearchEngine,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  /** Unsold listings, newest first. */
  browse(options: BrowseOptions): Promise<Page> {
    return this.browsePage({ ...options, includeSold: false });
  }

  /** All of the caller's listings, sold ones included, newest first. */
  mine(principal: Principal, options: Pick<BrowseOptions, 'limit' | 'cursor'>): Promise<Page> {
    return this.browsePage({
      ...options,
      campusId: principal.campusId,
      sellerId: principal.userId,
      includeSold: true,
    });
  }

  /**
   * Fuzzy search (Fuse.js model, see search/) over unsold listings passing the filters; ranked by
   * score, newest first on ties. An empty query is plain filtered browsing.
   */
  async searchListings(
    campusId: number,
    query: string,
    filters: FilterParams,
    limit: number,
    cursor: Cursor | undefined,
    sort: Sort = 'relevance',
    excludeSellers: readonly number[] = [],
  ): Promise<Page> {
    if (query === '') {
      return this.browse({
        ...filters,
        campusId,
        sort: sort === 'relevance' ? 'newest' : sort,
        limit,
        cursor,
        excludeSellers,
      });
    }
    // Blocked sellers: PostgresSearch leaves them out in its query; the memory index knows no
    // sellers, so they are dropped from the page after ranking: such a page can be shorter than
    // `limit`, and its Link still leads on without a gap.
    const searched = keepsCopy(this.search) ? filters : { ...filters, excludeSellers };
    const page =
      sort !== 'relevance'
        ? await this.searchSorted(campusId, query, searched, sort, limit, cursor)
        : await this.searchRanked(campusId, query, searched, limit, cursor);
    if (excludeSellers.length === 0) return page;
    const hidden = new Set(excludeSellers);
    return { ...page, listings: page.listings.filter((l) => !hidden.has(l.seller.id)) };
  }

  private async searchRanked(
    campusId: number,
    query: string,
    filters: FilterParams,
    limit: number,
    cursor: Cursor | undefined,
  ): Promise<Page> {
    const after = cursor?.kind === 'search' ? { score: cursor.score, id: cursor.id } : undefined;
    const { hits, page, listings } = await this.freshHits(campusId, limit, () =>
      this.search.search(campusId, query, filters, limit + 1, after),
    );
    const last = page[page.length - 1];
    const next: Cursor | undefined =
      hits.length > limit && last ? { kind: 'search', score: last.score, id: last.id } : undefined;
    return { listings, next };
  }

  /**
   * Runs an index search and loads its first `limit` hits as listings (of the campus searched:
   * the index's partition and the read agree). A hit the database no longer shows (sold or deleted
   * by another process) is dropped from the index and the search runs again; in one process this
   * never loops.
   */
  private async freshHits<H extends { id: number }>(
    campusId: number,
    limit: number,
    searchIndex: () => Promise<H[]>,
  ): Promise<{ hits: H[]; page: H[]; listings: Listing[] }> {
    for (let attempt = 0; ; attempt += 1) {
      const hits = await searchIndex();
      const page = hits.slice(0, limit);
      const rows = await store.findUnsoldByIds(
        this.db,
        campusId,
        page.map((h) => h.id),
        this.ctx.clock(),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const stale = page.filter((h) => !byId.has(h.id));
      if (stale.length > 0 && attempt < 3) {
        const search = this.search;
        if (keepsCopy(search)) for (const h of stale) search.forget(h.id);
        continue;
      }
      const listings = await store.toListings(
        this.db,
        this.ctx.photoStorage,
        page.flatMap((h) => {
          const row = byId.get(h.id);
          return row ? [row] : [];
        }),
      );
      return { hits, page, listings };
    }
  }

  /** Search in the newest or a price order: every match, keyset-paged by the sort key. */
  private async searchSorted(
    campusId: number,
    query: string,
    filters: FilterParams,
    sort: Exclude<Sort, 'relevance'>,
    limit: number,
    cursor: Cursor | undefined,
  ): Promise<Page> {
    const after =
      cursor?.kind === 'price'
        ? { price: cursor.price, id: cursor.id }
        : cursor?.kind === 'browse'
          ? { price: 0, id: cursor.id }
          : undefined;
    const { hits, page, listings } = await this.freshHits(campusId, limit, () =>
      this.search.searchSorted(campusId, query, filters, sort, limit + 1, after),
    );
    const last = page[page.length - 1];
    let next: Cursor | undefined;
    if (hits.length > limit && last) {
      next =
        sort === 'newest'
          ? { kind: 'browse', id: last.id }
          : { kind: 'price', price: last.price, id: last.id };
    }
    return { listings, next };
  }

  private async browsePage(q: Omit<BrowseQuery, 'beforeId'> & { cursor: Cursor | undefined }): Promise<Page> {
    const rows = await browse(
      this.db,
      {
        ...q,
        now: this.ctx.clock(),
        beforeId: q.cursor?.kind === 'browse' ? q.cursor.id : undefined,
        afterPrice: q.cursor?.kind === 'price' ? { price: q.cursor.price, id: q.cursor.id } : undefined,
        limit: q.limit + 1,
      },
      this.ctx.db.dialect,
    );
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    let next: Cursor | undefined;
    if (rows.length > q.limit && last) {
      next =
        (q.sort ?? 'newest') === 'newest'
          ? { kind: 'browse', id: last.id }
          : { kind: 'price', price: last.price_cents, id: last.id };
    }
    return { listings: await store.toListings(this.db, this.ctx.photoStorage, page), next };
  }
}
