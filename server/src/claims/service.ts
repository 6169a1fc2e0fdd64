import {
  CLAIMS_DURATIONS_MS,
  CLAIMS_LIMITS,
  CLAIMS_MESSAGES,
  DEALS_MESSAGES,
  claimBodySchema,
  type Claim,
  type ClaimDraw,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { PickupService } from '../deals/index.js';
import type { Trx } from '../events.js';
import { conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { findListingRow, type ListingWithSeller } from '../listings/index.js';
import { assertNotBlocked } from '../safety/index.js';
import type { Giveaways } from './giveaways.js';
import * as store from './store.js';

export const JOB_WINDOW_END = 'claims.window-end';
export const JOB_AUTO_DRAW = 'claims.auto-draw';
export const windowEndKey = (listingId: number) => `${JOB_WINDOW_END}:${listingId}`;
export const autoDrawKey = (listingId: number) => `${JOB_AUTO_DRAW}:${listingId}`;

const HOUR = 3_600_000;

/**
 * When a free listing's claim window closes (features.md §H: its claimWindowHours after posting, or
 * after a move-out turned it free).
 */
export function windowEndOf(
  listing: Pick<ListingWithSeller, 'created_at' | 'claim_window_hours' | 'free_from'>,
): number {
  const hours = listing.claim_window_hours ?? CLAIMS_LIMITS.claimWindowHoursDefault;
  return Number(listing.free_from ?? listing.created_at) + hours * HOUR;
}

const isFree = (l: ListingWithSeller) => l.price_cents === 0;
const isListed = (l: ListingWithSeller) => l.moderation !== 'REMOVED';

/** Claims on free items (features.md §H): claim, withdraw, list, and the giver's choose or draw. */
export class ClaimsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly giveaways: Giveaways,
    private readonly pickups: PickupService,
  ) {}

  private async run<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    const out = await this.ctx.domainEvents.transaction(fn);
    this.ctx.jobs.kick();
    return out;
  }

  /** The listing of the caller's campus; 404 like an unknown id otherwise (or removed). */
  private async listing(db: Trx | AppContext['db']['kysely'], id: number): Promise<ListingWithSeller> {
    const listing = await findListingRow(db, requireCampusId(), id);
    if (!listing || !isListed(listing)) throw notFound(DEALS_MESSAGES.listingNotFound);
    return listing;
  }

  /** POST /listings/{id}/claims {note}: a student (not the giver) claims a free item in its window. */
  claim(userId: number, listingId: number, body: unknown): Promise<Claim> {
    const { note } = parseOr400(claimBodySchema, body ?? {});
    return this.run(async (trx) => {
      const listing = await this.listing(trx, listingId);
      if (!isFree(listing)) throw conflict(CLAIMS_MESSAGES.notFree);
      if (listing.seller_id === userId) throw forbidden(CLAIMS_MESSAGES.ownListing);
      await assertNotBlocked(this.ctx, userId, listing.seller_id, trx);
      if (listing.status !== 'AVAILABLE') throw conflict(CLAIMS_MESSAGES.notAvailable);
      const now = this.ctx.clock();
      const closesAt = windowEndOf(listing);
      if (now >= closesAt || (await store.decisionOf(trx, listingId)))
        throw conflict(CLAIMS_MESSAGES.windowClosed);
      if (await store.findClaimOf(trx, listingId, userId)) throw conflict(CLAIMS_MESSAGES.alreadyClaimed);
      // Locks the student on PostgreSQL, so two claims at once cannot both pass the limits.
      if (!(await this.giveaways.mayWin(trx, userId))) throw conflict(CLAIMS_MESSAGES.winLimit);
      if ((await store.openUndecidedCount(trx, userId)) >= CLAIMS_LIMITS.openClaimsMax)
        throw conflict(CLAIMS_MESSAGES.tooManyOpen);
      const row = await trx
        .insertInto('claims')
        .values({
          listing_id: listingId,
          claimant_id: userId,
          note,
          status: 'OPEN',
          position: null,
          won_at: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['listing_id', 'claimant_id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw conflict(CLAIMS_MESSAGES.alreadyClaimed);
      // Keyed: the first claim schedules the giveaway's two timers, later ones find them pending.
      await this.ctx.jobs.enqueue(
        trx,
        JOB_WINDOW_END,
        { listingId },
        { runAt: closesAt, key: windowEndKey(listingId) },
      );
      await this.ctx.jobs.enqueue(
        trx,
        JOB_AUTO_DRAW,
        { listingId },
        { runAt: closesAt + CLAIMS_DURATIONS_MS.autoDrawAfter, key: autoDrawKey(listingId) },
      );
      return store.toClaim(row);
    });
  }

  /**
   * DELETE /listings/{id}/claims/mine: the claimant withdraws an OPEN claim, or gives up a pickup
   * they won (which then passes to the next in line).
   */
  withdraw(userId: number, listingId: number): Promise<Claim> {
    return this.run(async (trx) => {
      await this.listing(trx, listingId);
      const claim = await store.findClaimOf(trx, listingId, userId);
      if (!claim || (claim.status !== 'OPEN' && claim.status !== 'CHOSEN'))
        throw conflict(CLAIMS_MESSAGES.noClaimToWithdraw);
      const row = await trx
        .updateTable('claims')
        .set({ status: 'WITHDRAWN', updated_at: this.ctx.clock() })
        .where('id', '=', claim.id)
        .where('status', '=', claim.status)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw conflict(CLAIMS_MESSAGES.noClaimToWithdraw);
      if (claim.status === 'CHOSEN') await this.pickups.giveUp(trx, listingId, userId);
      return store.toClaim(row);
    });
  }

  /** GET /listings/{id}/claims: every claim for the giver (with names), their own for anyone else. */
  async list(userId: number, listingId: number, limit: number, beforeId?: number) {
    const db = this.ctx.db.kysely;
    const listing = await this.listing(db, listingId);
    const giver = listing.seller_id === userId;
    const page = await store.pageOfClaims(db, {
      listingId,
      claimantId: giver ? undefined : userId,
      beforeId,
      limit,
    });
    const names = giver
      ? await store.names(db, [...new Set(page.rows.map((r) => r.claimant_id))])
      : undefined;
    return { claims: page.rows.map((r) => store.toClaim(r, names)), next: page.next };
  }

  /**
   * GET /listings/{id}/claims/draw: the giveaway's decision, for the giver and its claimants
   * (audit: who decided, among which claims, the order, who was skipped, when).
   */
  async decision(userId: number, listingId: number): Promise<ClaimDraw> {
    const db = this.ctx.db.kysely;
    const listing = await this.listing(db, listingId);
    if (listing.seller_id !== userId && !(await store.findClaimOf(db, listingId, userId)))
      throw forbidden(CLAIMS_MESSAGES.notGiver);
    const draw = await store.decisionOf(db, listingId);
    if (!draw) throw notFound('No winner has been chosen or drawn yet');
    return store.toDraw(draw);
  }

  /** The giver's checks before a decision: their item, window closed, not decided yet. */
  private async decidable(trx: Trx, userId: number, listing: ListingWithSeller): Promise<void> {
    if (listing.seller_id !== userId) throw forbidden(CLAIMS_MESSAGES.notGiver);
    if (!isFree(listing)) throw conflict(CLAIMS_MESSAGES.notFree);
    const closesAt = windowEndOf(listing);
    if (this.ctx.clock() < closesAt)
      throw conflict(CLAIMS_MESSAGES.windowOpen(new Date(closesAt).toISOString()));
    if (await store.decisionOf(trx, listing.id)) throw conflict(CLAIMS_MESSAGES.alreadyDecided);
    if (listing.status !== 'AVAILABLE') throw conflict(CLAIMS_MESSAGES.notAvailable);
  }

  /** POST /claims/{id}/choose: the giver picks one OPEN claim; the rest are drawn behind it. */
  choose(userId: number, claimId: number): Promise<Claim> {
    return this.run(async (trx) => {
      const claim = await store.findClaim(trx, claimId);
      if (!claim) throw notFound(CLAIMS_MESSAGES.claimNotFound);
      const listing = await this.listing(trx, claim.listing_id);
      // Only the giver learns whether the claim exists beyond this point.
      await this.decidable(trx, userId, listing);
      if (claim.status !== 'OPEN') throw conflict(CLAIMS_MESSAGES.claimNotOpen);
      if (!(await this.giveaways.mayWin(trx, claim.claimant_id)))
        throw conflict(CLAIMS_MESSAGES.chosenOverLimit);
      const pool = await store.claimsOfListing(trx, listing.id, ['OPEN']);
      await this.giveaways.decide(trx, listing, pool, 'CHOSEN', userId, claim);
      return store.toClaim((await store.findClaim(trx, claimId))!);
    });
  }

  /** POST /listings/{id}/claims/draw: the giver draws among the OPEN claims (uniform, recorded). */
  draw(userId: number, listingId: number): Promise<ClaimDraw> {
    return this.run(async (trx) => {
      const listing = await this.listing(trx, listingId);
      await this.decidable(trx, userId, listing);
      const pool = await store.claimsOfListing(trx, listingId, ['OPEN']);
      if (pool.length === 0) throw conflict(CLAIMS_MESSAGES.noClaims);
      await this.giveaways.decide(trx, listing, pool, 'DRAWN', userId);
      return store.toDraw((await store.decisionOf(trx, listingId))!);
    });
  }
}
