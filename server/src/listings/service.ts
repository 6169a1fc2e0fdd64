import { MESSAGES, createListingSchema, type Category, type Listing } from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import { forbidden, notFound, parseOr400 } from '../http/errors.js';
import { removeStoredImage, storeJpeg, type StoredImage } from '../media/index.js';
import type { Cursor, FilterParams } from './query.js';
import type { LiveSearchIndex } from './search/live-index.js';
import * as store from './store.js';

export interface Page {
  listings: Listing[];
  next: Cursor | undefined;
}

export interface BrowseOptions {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
  limit: number;
  cursor: Cursor | undefined;
}

/** Listing rules: who may post, see, mark sold and delete; search over unsold listings. */
export class ListingsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly search: LiveSearchIndex,
    /** Called after every listing write (the routes' hot cache listens). */
    private readonly changed: () => void = () => {},
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  /**
   * Validates the form, stores the photo (if any), then writes the row; if the row cannot be
   * written the stored files are removed again.
   */
  async create(principal: Principal, fields: Record<string, string>, image: Buffer | null): Promise<number> {
    // A missing field is the same as an empty one: 'Please be sure to attach all required fields'.
    const input = parseOr400(createListingSchema, {
      name: '',
      category: '',
      description: '',
      price: '',
      ...fields,
    });
    let stored: StoredImage | null = null;
    if (image) stored = await storeJpeg(this.ctx, image);
    let row: store.ListingRow;
    try {
      row = await store.insertListing(this.db, {
        sellerId: principal.userId,
        name: input.name,
        description: input.description,
        category: input.category,
        priceCents: input.price,
        imageKey: stored?.imageKey ?? null,
        thumbKey: stored?.thumbKey ?? null,
        now: this.ctx.clock(),
      });
    } catch (err) {
      if (stored) await removeStoredImage(this.ctx, stored.imageKey, stored.thumbKey);
      throw err;
    }
    this.search.applyRow(row);
    this.changed();
    return row.id;
  }

  /** Any listing by id, sold ones included (a sold listing still opens from a chat or a link). */
  async get(id: number): Promise<Listing> {
    const row = await store.findById(this.db, id);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    return store.toListing(row);
  }

  /** Unsold listings, newest first. */
  browse(options: BrowseOptions): Promise<Page> {
    return this.browsePage({ ...options, includeSold: false });
  }

  /** All of the caller's listings, sold ones included, newest first. */
  mine(principal: Principal, options: Pick<BrowseOptions, 'limit' | 'cursor'>): Promise<Page> {
    return this.browsePage({ ...options, sellerId: principal.userId, includeSold: true });
  }

  /**
   * Fuzzy search (Fuse.js model, see search/) over unsold listings passing the filters; ranked by
   * score, newest first on ties. An empty query is plain filtered browsing.
   */
  async searchListings(
    query: string,
    filters: FilterParams,
    limit: number,
    cursor: Cursor | undefined,
  ): Promise<Page> {
    if (query === '') {
      return this.browse({
        categories: filters.categories,
        minCents: filters.minCents,
        maxCents: filters.maxCents,
        limit,
        cursor,
      });
    }
    const after = cursor?.kind === 'search' ? { score: cursor.score, id: cursor.id } : undefined;
    // A hit the database no longer shows (sold or deleted by another process) is dropped from the
    // index and the search runs again; in one process this never loops.
    for (let attempt = 0; ; attempt += 1) {
      const hits = await this.search.search(query, filters, limit + 1, after);
      const page = hits.slice(0, limit);
      const rows = await store.findUnsoldByIds(
        this.db,
        page.map((h) => h.id),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const stale = page.filter((h) => !byId.has(h.id));
      if (stale.length > 0 && attempt < 3) {
        for (const h of stale) this.search.forget(h.id);
        continue;
      }
      const listings = page.flatMap((h) => {
        const row = byId.get(h.id);
        return row ? [store.toListing(row)] : [];
      });
      const last = page[page.length - 1];
      const next: Cursor | undefined =
        hits.length > limit && last ? { kind: 'search', score: last.score, id: last.id } : undefined;
      return { listings, next };
    }
  }

  /** Flips sold/unsold; only the seller. Returns the listing as it now is. */
  async toggleSold(principal: Principal, id: number): Promise<Listing> {
    await this.ownedRow(principal, id);
    const row = await store.toggleSold(this.db, id, principal.userId, this.ctx.clock());
    if (!row) throw notFound(MESSAGES.listingNotFound);
    this.search.applyRow(row);
    this.changed();
    return this.get(id);
  }

  /** Deletes the row, then its photo files; only the seller. */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.ownedRow(principal, id);
    const row = await store.deleteListing(this.db, id, principal.userId);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    this.search.remove(id);
    this.changed();
    await removeStoredImage(this.ctx, row.image_key, row.thumb_key);
  }

  private async ownedRow(principal: Principal, id: number): Promise<store.ListingWithSeller> {
    const row = await store.findById(this.db, id);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    if (row.seller_id !== principal.userId) throw forbidden(MESSAGES.notYourListing);
    return row;
  }

  private async browsePage(
    q: Omit<store.BrowseQuery, 'beforeId'> & { cursor: Cursor | undefined },
  ): Promise<Page> {
    const rows = await store.browse(this.db, {
      ...q,
      beforeId: q.cursor?.kind === 'browse' ? q.cursor.id : undefined,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      listings: page.map(store.toListing),
      next: rows.length > q.limit && last ? { kind: 'browse', id: last.id } : undefined,
    };
  }
}
