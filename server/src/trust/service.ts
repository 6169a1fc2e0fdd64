import {
  centsToDollars,
  REVIEW_WINDOW_MS,
  TRUST_LIMITS,
  TRUST_MESSAGES,
  profilePatchSchema,
  reviewSchema,
  type DealWithReviews,
  type Listing,
  type Profile,
  type Review,
} from '@campus/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../context.js';
import type { Database } from '../db/schema.js';
import { HttpError, badRequest, conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { RenderedListings, browseListingRows, toListings, type ListingsModule } from '../listings/index.js';
import {
  imageVariants,
  prepareJpeg,
  queueVariants,
  removeLater,
  photoUrl,
  writePrepared,
  type ImageInput,
} from '../media/index.js';
import { dealItemsOf } from '../deals/index.js';
import { medianReplyMinutes } from './reply-time.js';
import * as store from './store.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A deal's blind reviews became visible (both rated, or the window closed). In the transaction:
     * notifications tells each student a review about them is now public.
     */
    'reviews.revealed': { dealId: number; subjectIds: readonly number[] };
  }
}

export const REVEAL_JOB = 'reviews.reveal';
export interface RevealPayload {
  dealId: number;
}
const revealKey = (dealId: number) => `${REVEAL_JOB}:${dealId}`;

export interface Paged<T> {
  items: T[];
  /** The id to continue before, when there is a next page. */
  nextBeforeId: number | undefined;
}

/** Reviews, profiles and the caller's deals (features.md §A). */
export class TrustService {
  constructor(
    private readonly ctx: AppContext,
    private readonly listings: ListingsModule,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  // ---- profiles

  /** Within the viewer's campus: another campus's student is 404 like an unknown id (§E). */
  async profile(viewer: Principal, userId: number): Promise<Profile> {
    const user = await store.findUser(this.db, userId, viewer.campusId);
    if (!user) throw notFound(TRUST_MESSAGES.userNotFound);
    const now = this.ctx.clock();
    const [ratingInfo, dealsCount, noShows, replyMinutes, listings] = await Promise.all([
      store.rating(this.db, userId),
      store.countDeals(this.db, userId),
      store.countNoShows(this.db, userId),
      medianReplyMinutes(this.db, userId, now),
      this.listingsOf(viewer, userId),
    ]);
    const events = dealsCount + noShows;
    return {
      id: user.id,
      firstName: user.first_name,
      lastName: user.last_name,
      // The student's campus: their avatar lives under its prefix.
      avatarUrl: photoUrl(this.ctx.photoStorage, viewer.campusId, user.avatar_key),
      avatarVariants: imageVariants(this.ctx.photoStorage, viewer.campusId, user.avatar_key),
      bio: user.bio ?? '',
      memberSince: store.iso(user.created_at),
      verifiedStudent: true,
      ratingAverage: ratingInfo.average,
      ratingCount: ratingInfo.count,
      dealsCount,
      reliability:
        events >= TRUST_LIMITS.reliabilityMinEvents ? Math.round((dealsCount / events) * 100) / 100 : null,
      medianReplyMinutes: replyMinutes,
      listings,
    };
  }

  /** Available and reserved listings (not sold), newest first, as the viewer sees them. */
  private async listingsOf(viewer: Principal, sellerId: number): Promise<Listing[]> {
    const rows = await browseListingRows(
      this.db,
      // Expired listings leave the profile like browse (features.md §H).
      { sellerId, includeSold: false, limit: TRUST_LIMITS.profileListings, now: this.ctx.clock() },
      this.ctx.db.dialect,
    );
    const listings = await toListings(this.db, this.ctx.photoStorage, rows);
    if (listings.length === 0) return [];
    const body = await this.listings.personaliser.body(new RenderedListings(listings, true), viewer);
    return JSON.parse(body) as Listing[];
  }

  async updateMe(principal: Principal, body: unknown): Promise<Profile> {
    if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0)
      throw badRequest(TRUST_MESSAGES.bioInvalid);
    const { bio } = parseOr400(profilePatchSchema, body);
    await store.setBio(this.db, principal.userId, bio === '' ? null : bio);
    return this.profile(principal, principal.userId);
  }

  /**
   * Prepares the photo, records it as the avatar (with its variants job), then writes its files;
   * the old avatar's files are removed by a job queued once the new ones are in place. If the new
   * files cannot be written the old avatar is put back (503).
   */
  async setAvatar(principal: Principal, image: ImageInput | null): Promise<Profile> {
    if (!image) throw badRequest(TRUST_MESSAGES.avatarRequired);
    const prepared = await prepareJpeg(image);
    const keys = { imageKey: prepared.imageKey, thumbKey: prepared.thumbKey };
    const old = await this.db.transaction().execute(async (trx) => {
      const previous = await store.setAvatar(trx, principal.userId, keys);
      await queueVariants(this.ctx, trx, keys.imageKey);
      return previous;
    });
    try {
      await writePrepared(this.ctx, prepared);
    } catch (err) {
      await this.db.transaction().execute(async (trx) => {
        await store.restoreAvatar(trx, principal.userId, keys, old);
        await removeLater(this.ctx, trx, keys.imageKey, keys.thumbKey);
      });
      throw err;
    }
    // Only now is the old avatar unused. Should this process die first, the orphan sweep removes it.
    await removeLater(this.ctx, this.db, old?.avatar_key, old?.avatar_thumb_key);
    return this.profile(principal, principal.userId);
  }

  // ---- reviews

  async review(principal: Principal, dealId: number, body: unknown): Promise<DealWithReviews> {
    const deal = await store.findDeal(this.db, dealId, principal.campusId);
    if (!deal) throw notFound(TRUST_MESSAGES.dealNotFound);
    const me = principal.userId;
    if (deal.seller_id !== me && deal.buyer_id !== me) throw forbidden(TRUST_MESSAGES.notYourDeal);
    const input = parseOr400(reviewSchema, body);
    const now = this.ctx.clock();
    const deadline = Number(deal.completed_at) + REVIEW_WINDOW_MS;
    if (now > deadline) throw conflict(TRUST_MESSAGES.reviewWindowOver);
    const subjectId = deal.seller_id === me ? deal.buyer_id : deal.seller_id;
    try {
      await this.ctx.domainEvents.transaction(async (trx) => {
        // The deal's row lock makes two reviews of one deal take turns (PostgreSQL; SQLite has one
        // writer), so the second always sees the first and reveals both.
        if (this.ctx.db.dialect === 'postgres') {
          await trx.selectFrom('deals').select('id').where('id', '=', dealId).forUpdate().execute();
        }
        const mine = await trx
          .selectFrom('reviews')
          .select('id')
          .where('deal_id', '=', dealId)
          .where('reviewer_id', '=', me)
          .executeTakeFirst();
        if (mine) throw conflict(TRUST_MESSAGES.alreadyReviewed);
        await store.insertReview(trx, { dealId, reviewerId: me, subjectId, ...input, now });
        const reviews = await store.reviewsOfDeal(trx, dealId);
        if (reviews.length >= 2) {
          // Both have rated: reveal in the same transaction, so no crash can leave a committed
          // second review blind until the window closes (the retry would only hear 409).
          await this.reveal(trx, dealId);
          await this.ctx.jobs.cancel(trx, revealKey(dealId));
          return;
        }
        // Blind until the window closes at the latest; the job is durable (survives restarts).
        await this.ctx.jobs.enqueue<RevealPayload>(
          trx,
          REVEAL_JOB,
          { dealId },
          { runAt: deadline, key: revealKey(dealId) },
        );
      });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      // Two requests of the same student at once: the unique (deal, reviewer) index refused one.
      if (await this.hasReviewed(dealId, me)) throw conflict(TRUST_MESSAGES.alreadyReviewed);
      throw err;
    }
    const [item] = await this.dealItems(me, [deal]);
    return item as DealWithReviews;
  }

  private async hasReviewed(dealId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('reviews')
      .select('id')
      .where('deal_id', '=', dealId)
      .where('reviewer_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The durable reveal at the end of the review window (job handler). */
  async revealDue(dealId: number): Promise<void> {
    await this.revealNow(dealId);
  }

  /** The durable reveal at the end of the review window (job handler). */
  private async revealNow(dealId: number): Promise<void> {
    await this.ctx.domainEvents.transaction((trx) => this.reveal(trx, dealId));
  }

  /** Reveals the deal's blind reviews and tells each student a review about them is now visible. */
  private async reveal(trx: Kysely<Database>, dealId: number): Promise<void> {
    const subjects = await store.reveal(trx, dealId, this.ctx.clock());
    if (subjects.length > 0)
      await this.ctx.domainEvents.announce(trx, 'reviews.revealed', { dealId, subjectIds: subjects });
  }

  async reviewsOf(
    viewer: Principal,
    userId: number,
    limit: number,
    beforeId?: number,
  ): Promise<Paged<Review>> {
    if (!(await store.findUser(this.db, userId, viewer.campusId)))
      throw notFound(TRUST_MESSAGES.userNotFound);
    const rows = await store.revealedReviewsOf(this.db, userId, limit, beforeId);
    const page = rows.slice(0, limit);
    return {
      items: page.map(store.toReview),
      nextBeforeId: rows.length > limit ? page[page.length - 1]?.id : undefined,
    };
  }

  // ---- the caller's deals

  async deals(principal: Principal, limit: number, beforeId?: number): Promise<Paged<DealWithReviews>> {
    const rows = await store.dealsOf(this.db, principal, limit, beforeId);
    const page = rows.slice(0, limit);
    return {
      items: await this.dealItems(principal.userId, page),
      nextBeforeId: rows.length > limit ? page[page.length - 1]?.id : undefined,
    };
  }

  private async dealItems(me: number, deals: readonly store.DealRow[]): Promise<DealWithReviews[]> {
    const now = this.ctx.clock();
    const [reviews, people, items] = await Promise.all([
      store.reviewsOfDeals(
        this.db,
        deals.map((d) => d.id),
      ),
      store.names(
        this.db,
        deals.map((d) => (d.seller_id === me ? d.buyer_id : d.seller_id)),
      ),
      dealItemsOf(this.db, deals),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    return deals.map((d) => {
      const otherId = d.seller_id === me ? d.buyer_id : d.seller_id;
      const other = byId.get(otherId);
      const mine = reviews.find((r) => r.deal_id === d.id && r.reviewer_id === me);
      const theirs = reviews.find((r) => r.deal_id === d.id && r.reviewer_id === otherId);
      const deadline = Number(d.completed_at) + REVIEW_WINDOW_MS;
      return {
        id: d.id,
        listingId: d.listing_id,
        listingName: d.listing_name,
        sellerId: d.seller_id,
        buyerId: d.buyer_id,
        price: centsToDollars(d.price_cents),
        completedAt: store.iso(d.completed_at),
        items: items.get(d.id) ?? [{ listingId: d.listing_id, listingName: d.listing_name }],
        role: d.seller_id === me ? 'SELLER' : 'BUYER',
        counterpart: { id: otherId, firstName: other?.first_name ?? '', lastName: other?.last_name ?? '' },
        myReview: mine ? store.toReview(mine) : null,
        // Blind: the other side's words only once revealed.
        theirReview: theirs && theirs.revealed_at !== null ? store.toReview(theirs) : null,
        canReview: !mine && now <= deadline,
        reviewDeadline: store.iso(deadline),
        revealed: (mine?.revealed_at ?? null) !== null || (theirs?.revealed_at ?? null) !== null,
      };
    });
  }
}
