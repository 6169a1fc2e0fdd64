import {
  MESSAGES,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  savedSearchSchema,
  wantedSchema,
  type Category,
  type Listing,
  type SavedSearch,
  type WantedPost,
} from '@campus/contract';
import type { Transaction } from 'kysely';
import { assertAllowed } from '../safety/index.js';
import type { AppContext, Principal } from '../context.js';
import type { Database } from '../db/schema.js';
import { HttpError, badRequest, notFound, parseOr400 } from '../http/errors.js';
import { findListingRow, isListingRemoved, toListings, type ListingsModule } from '../listings/index.js';
import type { Cursor } from '../http/paging.js';
import * as store from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ListingPage {
  listings: Listing[];
  next: Cursor | undefined;
}

export interface WantedPage {
  posts: WantedPost[];
  next: Cursor | undefined;
}

/** Favourites, saved searches and wanted posts (features.md §B). */
export class SellingService {
  constructor(
    private readonly ctx: AppContext,
    private readonly listings: ListingsModule,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  // ---- favourites

  /**
   * A removed listing (moderation) is not found, like an unknown one: nobody can save it. Nor can
   * anyone save another campus's listing (features.md §E): its id answers like an unknown one.
   */
  async save(principal: Principal, listingId: number): Promise<void> {
    const row = await findListingRow(this.db, principal.campusId, listingId);
    if (!row || isListingRemoved(row)) throw notFound(MESSAGES.listingNotFound);
    if (row.seller_id === principal.userId) throw badRequest(SELLING_MESSAGES.saveOwnListing);
    await store.save(this.db, principal.userId, listingId, this.ctx.clock());
    this.listings.personaliser.forget(principal.userId);
  }

  async unsave(principal: Principal, listingId: number): Promise<void> {
    const row = await findListingRow(this.db, principal.campusId, listingId);
    if (!row) throw notFound(MESSAGES.listingNotFound);
    await store.unsave(this.db, principal.userId, listingId);
    this.listings.personaliser.forget(principal.userId);
  }

  async saved(principal: Principal, limit: number, cursor: Cursor | undefined): Promise<ListingPage> {
    const rows = await store.savedListings(
      this.db,
      principal.campusId,
      principal.userId,
      cursor?.kind === 'browse' ? cursor.id : undefined,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      listings: await toListings(this.db, this.ctx.photoStorage, page),
      next: rows.length > limit && last ? { kind: 'browse', id: last.save_id } : undefined,
    };
  }

  // ---- saved searches

  async createSearch(principal: Principal, body: unknown): Promise<SavedSearch> {
    const input = parseOr400(savedSearchSchema, body);
    const empty =
      input.query === '' &&
      input.categories.length === 0 &&
      input.priceMin === undefined &&
      input.priceMax === undefined &&
      input.conditions.length === 0 &&
      !input.courseCode;
    if (empty) throw badRequest(SELLING_MESSAGES.savedSearchEmpty);
    const now = this.ctx.clock();
    const row = await this.db.transaction().execute(async (trx) => {
      // Serialise one student's creates so the limit holds under concurrent requests.
      await this.lockUser(trx, principal.userId);
      if ((await store.countSearches(trx, principal.userId)) >= SELLING_LIMITS.savedSearchesMax)
        throw new HttpError(409, SELLING_MESSAGES.savedSearchesFull);
      return trx
        .insertInto('saved_searches')
        .values({
          user_id: principal.userId,
          query: input.query,
          categories: [...new Set(input.categories)].join(','),
          price_min_cents: input.priceMin ?? null,
          price_max_cents: input.priceMax ?? null,
          conditions: [...new Set(input.conditions)].join(','),
          course_code: input.courseCode ?? null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return store.toSavedSearch(row);
  }

  async searches(principal: Principal): Promise<SavedSearch[]> {
    const rows = await this.db
      .selectFrom('saved_searches')
      .selectAll()
      .where('campus_id', '=', principal.campusId)
      .where('user_id', '=', principal.userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(store.toSavedSearch);
  }

  /** Only the owner; anyone else's id is "not found" (saved searches are private). */
  async deleteSearch(principal: Principal, id: number): Promise<void> {
    const gone = await this.db
      .deleteFrom('saved_searches')
      .where('id', '=', id)
      .where('campus_id', '=', principal.campusId)
      .where('user_id', '=', principal.userId)
      .returning('id')
      .executeTakeFirst();
    if (!gone) throw notFound(SELLING_MESSAGES.savedSearchNotFound);
  }

  // ---- wanted posts

  async createWanted(principal: Principal, body: unknown): Promise<WantedPost> {
    const input = parseOr400(wantedSchema, body);
    if (input.courseCode && input.category !== 'BOOKS') throw badRequest(SELLING_MESSAGES.textbookOnly);
    // Prohibited terms (safety) refuse a wanted post like a listing: the poster's campus's rules.
    const rules = this.ctx.campuses.byId(principal.campusId).prohibitedRules;
    assertAllowed(rules, input.title, input.description ?? '');
    const now = this.ctx.clock();
    const id = await this.db.transaction().execute(async (trx) => {
      await this.lockUser(trx, principal.userId);
      if ((await store.countOpenWanted(trx, principal.userId, now)) >= SELLING_LIMITS.wantedOpenMax)
        throw new HttpError(409, SELLING_MESSAGES.wantedFull);
      const row = await trx
        .insertInto('wanted_posts')
        .values({
          user_id: principal.userId,
          title: input.title,
          description: input.description,
          category: input.category,
          max_price_cents: input.maxPrice ?? null,
          course_code: input.courseCode ?? null,
          created_at: now,
          expires_at: now + SELLING_LIMITS.wantedDays * DAY_MS,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    return this.wantedById(principal.campusId, id);
  }

  private async wantedById(campusId: number, id: number): Promise<WantedPost> {
    const row = await store
      .wantedWithAuthor(this.db)
      .where('wanted_posts.id', '=', id)
      .where('wanted_posts.campus_id', '=', campusId)
      .executeTakeFirst();
    if (!row) throw notFound(SELLING_MESSAGES.wantedNotFound);
    return store.toWanted(row, this.ctx.clock());
  }

  /** The open wanted posts of the caller's campus, newest first, optionally in some categories. */
  async openWanted(
    principal: Principal,
    categories: readonly Category[],
    limit: number,
    cursor: Cursor | undefined,
  ): Promise<WantedPage> {
    const now = this.ctx.clock();
    let q = store
      .wantedWithAuthor(this.db)
      .where('wanted_posts.campus_id', '=', principal.campusId)
      .where('wanted_posts.expires_at', '>', now);
    if (categories.length > 0) q = q.where('wanted_posts.category', 'in', [...categories]);
    if (cursor?.kind === 'browse') q = q.where('wanted_posts.id', '<', cursor.id);
    const rows = await q
      .orderBy('wanted_posts.id', 'desc')
      .limit(limit + 1)
      .execute();
    return this.wantedPage(rows, limit, now);
  }

  /** The caller's own posts, open and expired, newest first. */
  async myWanted(principal: Principal, limit: number, cursor: Cursor | undefined): Promise<WantedPage> {
    const now = this.ctx.clock();
    let q = store
      .wantedWithAuthor(this.db)
      .where('wanted_posts.campus_id', '=', principal.campusId)
      .where('wanted_posts.user_id', '=', principal.userId);
    if (cursor?.kind === 'browse') q = q.where('wanted_posts.id', '<', cursor.id);
    const rows = await q
      .orderBy('wanted_posts.id', 'desc')
      .limit(limit + 1)
      .execute();
    return this.wantedPage(rows, limit, now);
  }

  private wantedPage(rows: store.WantedRow[], limit: number, now: number): WantedPage {
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      posts: page.map((r) => store.toWanted(r, now)),
      next: rows.length > limit && last ? { kind: 'browse', id: last.id } : undefined,
    };
  }

  /**
   * Only the author; anyone else of the campus gets 403 (wanted posts are public there, so the id is
   * no secret), anyone of another campus 404, as for an unknown id.
   */
  async deleteWanted(principal: Principal, id: number): Promise<void> {
    const row = await this.db
      .selectFrom('wanted_posts')
      .select('user_id')
      .where('id', '=', id)
      .where('campus_id', '=', principal.campusId)
      .executeTakeFirst();
    if (!row) throw notFound(SELLING_MESSAGES.wantedNotFound);
    if (row.user_id !== principal.userId) throw new HttpError(403, SELLING_MESSAGES.wantedNotYours);
    await this.db
      .deleteFrom('wanted_posts')
      .where('id', '=', id)
      .where('campus_id', '=', principal.campusId)
      .execute();
  }

  /** Concurrent creates by one student queue here (PostgreSQL row lock; SQLite is serial). */
  private async lockUser(trx: Transaction<Database>, userId: number): Promise<void> {
    if (this.ctx.db.dialect === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
}
