import {
  MESSAGES,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type CourseBooks,
  type Listing,
  type Sort,
} from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import type { DomainEvents, Trx } from '../events.js';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors.js';
import {
  prepareJpeg,
  queueVariants,
  removeLater,
  writePrepared,
  type ImageInput,
  type PreparedImage,
} from '../media/index.js';
import { courseBooks } from './courses.js';
import { parseCreate, parseEdit } from './edit.js';
import { periodEnd } from './freshness-jobs.js';
import { ListingPages, type BrowseOptions, type Page } from './pages.js';
import type { Cursor, FilterParams } from './query.js';
import type { SearchEngine } from './search/listing-search.js';
import * as store from './store.js';

export type { BrowseOptions, Page } from './pages.js';

/** Whether a listing's text is being created or edited (the daily cap counts only creations). */
export type ListingWrite = 'created' | 'edited';

/** What the listings service needs from other modules, built before it (wired in app.ts). */
export interface ListingsDeps {
  /**
   * Refuses a listing's text before anything is stored or any photo is processed (safety:
   * prohibited terms, and the daily cap on new listings). Throws to refuse.
   */
  checkWrite(
    principal: Principal,
    text: { name: string; description: string },
    kind: ListingWrite,
  ): Promise<void>;
  /** Sellers whose listings this viewer does not see in browse, search and detail (safety: blocks). */
  hiddenSellers: {
    of(userId: number): Promise<ReadonlySet<number>>;
    /** The same set when it is already in memory; undefined means "ask `of`". */
    cached(userId: number): ReadonlySet<number> | undefined;
  };
  /**
   * The sold toggle, done by the deals module under the listing's lock, because a reservation or a
   * confirmed deal changes what it means (deals/sold.ts). Undefined: the row is gone or not the
   * seller's.
   */
  toggleSold(sellerId: number, listingId: number): Promise<store.ListingRow | undefined>;
}

/**
 * Listing rules: who may post, edit, see, mark sold and delete. Each write announces what changed
 * (listings/events.ts) in its transaction; the index, caches, matching and notices listen.
 */
export class ListingsService {
  private readonly pages: ListingPages;

  constructor(
    private readonly ctx: AppContext,
    search: SearchEngine,
    private readonly deps: ListingsDeps,
  ) {
    this.pages = new ListingPages(ctx, search);
  }

  private get db() {
    return this.ctx.db.kysely;
  }

  private get events(): DomainEvents {
    return this.ctx.domainEvents;
  }

  /** Sellers whose listings this viewer does not see (the students the viewer blocked). */
  hiddenSellersFor(userId: number): Promise<ReadonlySet<number>> {
    return this.deps.hiddenSellers.of(userId);
  }

  /**
   * The campus's course codes with books for sale, as the viewer sees them (their blocks left out):
   * the Books category's course chips and the course card above search results.
   */
  async courseBooks(principal: Principal, courseCode?: string): Promise<CourseBooks[]> {
    const hidden = await this.hiddenSellersFor(principal.userId);
    return courseBooks(this.db, {
      campusId: principal.campusId,
      excludeSellers: [...hidden],
      ...(courseCode !== undefined ? { courseCode } : {}),
    });
  }

  /**
   * The same set when it is already in memory, without waiting (hot reads answer synchronously);
   * undefined means "ask hiddenSellersFor".
   */
  hiddenSellersNow(userId: number): ReadonlySet<number> | undefined {
    return this.deps.hiddenSellers.cached(userId);
  }

  /**
   * Counts one listing edit against the student's hourly budget (SELLING_LIMITS.editsPerHour, in
   * Redis when scaled out); over it, 429 with Retry-After and a message saying why.
   */
  private async takeEdit(principal: Principal): Promise<void> {
    try {
      await this.ctx.limits.consume('listing-edit:account', String(principal.userId));
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 429) throw err;
      throw new HttpError(429, SELLING_MESSAGES.editsTooMany, err.code, err.headers);
    }
  }

  /**
   * The cheap checks of a new listing's text (form, extras, prohibited terms, daily cap), run by
   * the create route before any photo is read; create() then skips them (`checked`).
   */
  async checkCreate(principal: Principal, fields: Record<string, string>): Promise<void> {
    const { input } = parseCreate(fields);
    await this.deps.checkWrite(principal, input, 'created');
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
    const { input, extras, claimWindowHours } = parseCreate(fields);
    if (!options.checked) await this.deps.checkWrite(principal, input, 'created');
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
    const row = await this.events.transaction(async (trx) => {
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
        // Listed for LISTING_DAYS (features.md §H); freshness.ts files the period's jobs.
        expiresAt: periodEnd(this.ctx, now),
        claimWindowHours,
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
      await this.events.announce(trx, 'listing.written', { row: inserted, change: 'created' });
      return inserted;
    });
    try {
      for (const photo of prepared) await writePrepared(this.ctx, photo);
    } catch (err) {
      // Take the listing back; the photos already written go with it (a durable job).
      await this.events.transaction(async (trx) => {
        await store.deleteListing(trx, row.id, principal.userId);
        await removeLater(this.ctx, trx, ...prepared.flatMap((p) => [p.imageKey, p.thumbKey]));
        await this.events.announce(trx, 'listing.deleted', { id: row.id, campusId: principal.campusId });
      });
      throw err;
    }
    return row.id;
  }

  /**
   * PATCH /listing/{id}: any of the editable fields, validated exactly like create on the listing
   * as it would become (edit.ts). Lowering the price of an unsold listing records a price drop
   * (listing_price_drops) and announces it with the edit. Answers the listing as the edit left it.
   */
  async edit(principal: Principal, id: number, body: unknown): Promise<Listing> {
    const current = await this.ownedRow(principal, id);
    const next = parseEdit(current, body);
    await this.deps.checkWrite(principal, next, 'edited');
    // Only edits that would be saved count: a refused one costs no matching.
    await this.takeEdit(principal);

    const now = this.ctx.clock();
    const row = await this.events.transaction(async (trx) => {
      const updated = await trx
        .updateTable('listings')
        .set({
          name: next.name,
          description: next.description,
          category: next.category,
          price_cents: next.price,
          condition: next.condition,
          course_code: next.courseCode,
          isbn: next.isbn,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('campus_id', '=', principal.campusId)
        .where('seller_id', '=', principal.userId)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw notFound(MESSAGES.listingNotFound);
      if (updated.is_sold === 0 && next.price < current.price_cents) {
        await this.recordPriceDrop(trx, updated, current.price_cents, now);
      }
      await this.events.announce(trx, 'listing.written', { row: updated, change: 'edited' });
      return updated;
    });
    // A listing a moderator removed is gone for everyone, its seller's edit included (as get()).
    if (store.isRemoved(row)) throw notFound(MESSAGES.listingNotFound);
    const [listing] = await store.toListings(this.db, this.ctx.photoStorage, [
      { ...row, first_name: current.first_name, last_name: current.last_name },
    ]);
    return listing as Listing;
  }

  private async recordPriceDrop(
    trx: Trx,
    row: store.ListingRow,
    oldCents: number,
    now: number,
  ): Promise<void> {
    await trx
      .insertInto('listing_price_drops')
      .values({
        listing_id: row.id,
        old_price_cents: oldCents,
        new_price_cents: row.price_cents,
        created_at: now,
      })
      .execute();
    await this.events.announce(trx, 'listing.priceDropped', { row, oldCents });
  }

  /**
   * Any listing of the campus by id, sold ones included (a sold listing still opens from a chat or
   * a link); one a moderator removed is gone for everyone (the seller still finds it in their own
   * listings). Another campus's listing is not found, exactly like an unknown id.
   */
  async get(campusId: number, id: number): Promise<Listing> {
    const row = await store.findById(this.db, campusId, id);
    if (!row || store.isRemoved(row)) throw notFound(MESSAGES.listingNotFound);
    const [listing] = await store.toListings(this.db, this.ctx.photoStorage, [row]);
    return listing as Listing;
  }

  /** Unsold listings of a campus, newest first. */
  browse(options: BrowseOptions): Promise<Page> {
    return this.pages.browse(options);
  }

  /** All of the caller's listings, sold ones included, newest first. */
  mine(principal: Principal, options: Pick<BrowseOptions, 'limit' | 'cursor'>): Promise<Page> {
    return this.pages.mine(principal, options);
  }

  /**
   * Fuzzy search (Fuse.js model, see search/) over a campus's unsold listings passing the filters;
   * ranked by score, newest first on ties. An empty query is plain filtered browsing.
   */
  searchListings(
    campusId: number,
    query: string,
    filters: FilterParams,
    limit: number,
    cursor: Cursor | undefined,
    sort: Sort = 'relevance',
    excludeSellers: readonly number[] = [],
  ): Promise<Page> {
    return this.pages.searchListings(campusId, query, filters, limit, cursor, sort, excludeSellers);
  }

  /**
   * Flips sold/unsold; only the seller. Returns the listing as it now is. The deals module does
   * the toggle and announces the change (the index and hot cache follow before this answers).
   */
  async toggleSold(principal: Principal, id: number): Promise<Listing> {
    await this.ownedRow(principal, id);
    const row = await this.deps.toggleSold(principal.userId, id);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    return this.get(principal.campusId, id);
  }

  /**
   * Deletes the row (its photo rows go with it) and, in the same transaction, a job that removes
   * every photo file: the files go once the row is gone, even if this process dies now. Only the
   * seller.
   */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.ownedRow(principal, id);
    const row = await this.events.transaction(async (trx) => {
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
      await this.events.announce(trx, 'listing.deleted', { id, campusId: principal.campusId });
      return deleted;
    });
    if (!row) throw notFound(MESSAGES.listingNotFound);
  }

  /**
   * The caller's own listing: 404 for an unknown id or another campus's (which the caller cannot
   * know of), 403 for another seller's listing of the caller's campus.
   */
  async ownedRow(principal: Principal, id: number): Promise<store.ListingWithSeller> {
    const row = await store.findById(this.db, principal.campusId, id);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    if (row.seller_id !== principal.userId) throw forbidden(MESSAGES.notYourListing);
    return row;
  }
}
