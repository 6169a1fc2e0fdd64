import {
  MESSAGES,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  createListingSchema,
  listingExtrasSchema,
  type Category,
  type Listing,
  type Sort,
} from '@campus/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../context.js';
import type { Database } from '../db/schema.js';
import { HttpError, badRequest, forbidden, notFound, parseOr400 } from '../http/errors.js';
import {
  prepareJpeg,
  queueVariants,
  removeLater,
  writePrepared,
  type ImageInput,
  type PreparedImage,
} from '../media/index.js';
import { checkExtras } from './edit.js';
import type { Cursor, FilterParams } from './query.js';
import type { ListingSearch } from './search/listing-search.js';
import * as store from './store.js';

/** What happened to a listing, for the hooks inside its transaction (saved-search and wanted matching). */
export type ListingWrite = 'created' | 'edited';

export interface Page {
  listings: Listing[];
  next: Cursor | undefined;
}

export interface BrowseOptions {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
  conditions?: readonly string[];
  courseCode?: string;
  isbn?: string;
  sort?: store.BrowseSort;
  limit: number;
  cursor: Cursor | undefined;
  /** Sellers the viewer blocked (safety). */
  excludeSellers?: readonly number[];
}

const NOBODY: ReadonlySet<number> = new Set();

/** Listing rules: who may post, see, mark sold and delete; search over unsold listings. */
export class ListingsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly search: ListingSearch,
    /** Called after every listing write (the routes' hot cache listens). */
    private readonly changed: () => void = () => {},
  ) {}

  /**
   * Sellers whose listings this viewer does not see in browse, search and detail (set by the safety
   * module: the students the viewer blocked).
   */
  hiddenSellersFor: (userId: number) => Promise<ReadonlySet<number>> = async () => NOBODY;

  /**
   * The same set when it is already in memory, without waiting (hot reads answer synchronously);
   * undefined means "ask hiddenSellersFor". The safety module sets both.
   */
  hiddenSellersNow: (userId: number) => ReadonlySet<number> | undefined = () => undefined;

  /** Checks run before a listing is created or edited (safety: prohibited terms, daily cap). */
  readonly beforeWrite: Array<
    (principal: Principal, text: { name: string; description: string }, kind: ListingWrite) => Promise<void>
  > = [];

  async checkWrite(
    principal: Principal,
    text: { name: string; description: string },
    kind: ListingWrite,
  ): Promise<void> {
    for (const check of this.beforeWrite) await check(principal, text, kind);
  }

  /**
   * Run inside the edit's transaction when the price of an unsold listing falls (the notifications
   * module announces drops of 10 % or more to those who saved it).
   */
  readonly onPriceDrop: Array<
    (trx: Kysely<Database>, listing: store.ListingRow, oldCents: number) => Promise<void>
  > = [];

  /**
   * Run inside the create's or edit's transaction (the selling module enqueues its matching job
   * here, so the job exists exactly when the listing change commits).
   */
  readonly inWrite: Array<
    (trx: Kysely<Database>, row: store.ListingRow, kind: ListingWrite) => Promise<void>
  > = [];

  /** A write landed: the index follows at once, the hot cache clears. */
  async written(row: store.ListingRow): Promise<void> {
    this.search.applyRow(row);
    this.changed();
  }

  /**
   * Counts one listing edit against the student's hourly budget (SELLING_LIMITS.editsPerHour, in
   * Redis when scaled out); over it, 429 with Retry-After and a message saying why.
   */
  async takeEdit(principal: Principal): Promise<void> {
    try {
      await this.ctx.limits.consume('listing-edit:account', String(principal.userId));
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 429) throw err;
      throw new HttpError(429, SELLING_MESSAGES.editsTooMany, err.code, err.headers);
    }
  }

  get database() {
    return this.db;
  }

  clock(): number {
    return this.ctx.clock();
  }

  private get db() {
    return this.ctx.db.kysely;
  }

  /**
   * The cheap checks of a new listing's text (form, extras, prohibited terms, daily cap), run by
   * the create route before any photo is read; create() then skips them (`checked`).
   */
  async checkCreate(principal: Principal, fields: Record<string, string>): Promise<void> {
    const { input } = parseCreate(fields);
    await this.checkWrite(principal, input, 'created');
  }

  /**
   * Checks the form (unless checkCreate already did), prepares every photo one at a time, records
   * the listing and its photos, then writes the files: no file is ever served that no row knows
   * about. If the files cannot be written the listing is taken back (503).
   */
  async create(
    principal: Principal,
    fields: Record<string, string>,
    images: ImageInput | null | readonly ImageInput[],
    options: { checked?: boolean } = {},
  ): Promise<number> {
    const { input, extras } = parseCreate(fields);
    if (!options.checked) await this.checkWrite(principal, input, 'created');
    const list =
      images === null
        ? []
        : Array.isArray(images)
          ? [...(images as readonly ImageInput[])]
          : [images as ImageInput];
    if (list.length > SELLING_LIMITS.photosMax) throw badRequest(SELLING_MESSAGES.photosTooMany);
    // One photo decoded at a time: only the re-encoded copies (a few hundred KB each) are kept.
    const prepared: PreparedImage[] = [];
    for (const image of list) prepared.push(await prepareJpeg(image));
    const now = this.ctx.clock();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await store.insertListing(trx, {
        sellerId: principal.userId,
        name: input.name,
        description: input.description,
        category: input.category,
        priceCents: input.price,
        imageKey: prepared[0]?.imageKey ?? null,
        thumbKey: prepared[0]?.thumbKey ?? null,
        now,
        condition: extras.condition ?? null,
        courseCode: extras.courseCode ?? null,
        isbn: extras.isbn ?? null,
      });
      for (const [i, photo] of prepared.entries()) {
        await queueVariants(this.ctx, trx, photo.imageKey);
        if (i === 0) continue;
        await trx
          .insertInto('listing_photos')
          .values({
            listing_id: inserted.id,
            position: i,
            image_key: photo.imageKey,
            thumb_key: photo.thumbKey,
            created_at: now,
          })
          .execute();
      }
      for (const hook of this.inWrite) await hook(trx, inserted, 'created');
      return inserted;
    });
    try {
      for (const photo of prepared) await writePrepared(this.ctx, photo);
    } catch (err) {
      // Take the listing back; the photos already written go with it (a durable job).
      await this.db.transaction().execute(async (trx) => {
        await store.deleteListing(trx, row.id, principal.userId);
        await removeLater(this.ctx, trx, ...prepared.flatMap((p) => [p.imageKey, p.thumbKey]));
      });
      throw err;
    }
    await this.written(row);
    return row.id;
  }

  /**
   * Any listing by id, sold ones included (a sold listing still opens from a chat or a link); one a
   * moderator removed is gone for everyone (the seller still finds it in their own listings).
   */
  async get(id: number): Promise<Listing> {
    const row = await store.findById(this.db, id);
    if (!row || store.isRemoved(row)) throw notFound(MESSAGES.listingNotFound);
    const [listing] = await store.toListings(this.db, [row]);
    return listing as Listing;
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
    sort: Sort = 'relevance',
    excludeSellers: readonly number[] = [],
  ): Promise<Page> {
    if (query === '') {
      return this.browse({
        ...filters,
        sort: sort === 'relevance' ? 'newest' : sort,
        limit,
        cursor,
        excludeSellers,
      });
    }
    // Blocked sellers are dropped from the page after ranking (the index knows no sellers): such a
    // page can be shorter than `limit`, and its Link still leads on without a gap.
    const page =
      sort !== 'relevance'
        ? await this.searchSorted(query, filters, sort, limit, cursor)
        : await this.searchRanked(query, filters, limit, cursor);
    if (excludeSellers.length === 0) return page;
    const hidden = new Set(excludeSellers);
    return { ...page, listings: page.listings.filter((l) => !hidden.has(l.seller.id)) };
  }

  private async searchRanked(
    query: string,
    filters: FilterParams,
    limit: number,
    cursor: Cursor | undefined,
  ): Promise<Page> {
    const after = cursor?.kind === 'search' ? { score: cursor.score, id: cursor.id } : undefined;
    const { hits, page, listings } = await this.freshHits(limit, () =>
      this.search.search(query, filters, limit + 1, after),
    );
    const last = page[page.length - 1];
    const next: Cursor | undefined =
      hits.length > limit && last ? { kind: 'search', score: last.score, id: last.id } : undefined;
    return { listings, next };
  }

  /**
   * Runs an index search and loads its first `limit` hits as listings. A hit the database no
   * longer shows (sold or deleted by another process) is dropped from the index and the search
   * runs again; in one process this never loops.
   */
  private async freshHits<H extends { id: number }>(
    limit: number,
    searchIndex: () => Promise<H[]>,
  ): Promise<{ hits: H[]; page: H[]; listings: Listing[] }> {
    for (let attempt = 0; ; attempt += 1) {
      const hits = await searchIndex();
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
      const listings = await store.toListings(
        this.db,
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
    const { hits, page, listings } = await this.freshHits(limit, () =>
      this.search.searchSorted(query, filters, sort, limit + 1, after),
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

  /**
   * Set by the deals module: does the sold toggle itself, under the listing's lock, because a
   * reservation or a confirmed deal changes what it means (deals/sold.ts). Undefined: the row is
   * gone or not the seller's.
   */
  soldToggle: ((sellerId: number, id: number) => Promise<store.ListingRow | undefined>) | undefined;

  /** Flips sold/unsold; only the seller. Returns the listing as it now is. */
  async toggleSold(principal: Principal, id: number): Promise<Listing> {
    await this.ownedRow(principal, id);
    const row = this.soldToggle
      ? await this.soldToggle(principal.userId, id)
      : await store.toggleSold(this.db, id, principal.userId, this.ctx.clock());
    if (!row) throw notFound(MESSAGES.listingNotFound);
    await this.written(row);
    return this.get(id);
  }

  /**
   * Deletes the row (its photo rows go with it) and, in the same transaction, a job that removes
   * every photo file: the files go once the row is gone, even if this process dies now. Only the
   * seller.
   */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.ownedRow(principal, id);
    const row = await this.db.transaction().execute(async (trx) => {
      // Locked first (PostgreSQL), so a photo added meanwhile is either seen here or refused.
      await store.lockListing(trx, id, this.ctx.db.dialect);
      const photos = (await store.photosFor(trx, [id])).get(id) ?? [];
      const deleted = await store.deleteListing(trx, id, principal.userId);
      if (!deleted) return undefined;
      await removeLater(
        this.ctx,
        trx,
        deleted.image_key,
        deleted.thumb_key,
        ...photos.flatMap((p) => [p.image_key, p.thumb_key]),
      );
      return deleted;
    });
    if (!row) throw notFound(MESSAGES.listingNotFound);
    this.search.remove(id);
    this.changed();
  }

  async ownedRow(principal: Principal, id: number): Promise<store.ListingWithSeller> {
    const row = await store.findById(this.db, id);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    if (row.seller_id !== principal.userId) throw forbidden(MESSAGES.notYourListing);
    return row;
  }

  private async browsePage(
    q: Omit<store.BrowseQuery, 'beforeId'> & { cursor: Cursor | undefined },
  ): Promise<Page> {
    const rows = await store.browse(
      this.db,
      {
        ...q,
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
    return { listings: await store.toListings(this.db, page), next };
  }
}

/** A create form's fields, parsed: a missing field is the same as an empty one (spec §7's message). */
function parseCreate(fields: Record<string, string>) {
  const { condition, courseCode, isbn, ...base } = fields;
  const input = parseOr400(createListingSchema, {
    name: '',
    category: '',
    description: '',
    price: '',
    ...base,
  });
  const extras = parseOr400(listingExtrasSchema, { condition, courseCode, isbn });
  checkExtras(input.category, extras.condition ?? null, extras.courseCode ?? null, extras.isbn ?? null);
  return { input, extras };
}
