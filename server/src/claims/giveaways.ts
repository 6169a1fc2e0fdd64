import { CLAIMS_DURATIONS_MS, CLAIMS_LIMITS, CLAIMS_MESSAGES, type ClaimDrawMethod } from '@campus/contract';
import type { AppContext } from '../context.js';
import type { PickupEndReason, PickupService } from '../deals/index.js';
import type { Trx } from '../events.js';
import { conflict } from '../http/errors.js';
import { shuffled, type RandomSource } from './draw.js';
import * as store from './store.js';

declare module '../events.js' {
  interface DomainEventMap {
    /** A free item's claim window closed with claims in: the giver is told to choose or draw. */
    'claims.ready': { giverId: number; listingId: number; listingName: string; count: number };
    /** A claimant won a free item: their pickup started in the pair's room. */
    'claims.won': {
      claimantId: number;
      listingId: number;
      listingName: string;
      roomId: string;
      pickupBy: number;
    };
    /** A claimant did not get the item (it was handed to someone else, or given away elsewhere). */
    'claims.lost': { claimantId: number; listingId: number; listingName: string; othersNearby: number };
  }
}

/** The giveaway's listing as the decisions need it. */
export interface GiveawayListing {
  id: number;
  name: string;
  seller_id: number;
}

/**
 * The decisions of a giveaway (features.md §H), each inside the caller's transaction: the order
 * of the claimants (chosen or drawn, recorded once per giveaway for audit), the win (a pickup from
 * deals), passing the item down the line, and the end of the giveaway. The win limit is checked
 * at each win: a student over it is skipped (draw, pass-on) or refused (the giver's choice).
 */
export class Giveaways {
  constructor(
    private readonly ctx: AppContext,
    private readonly pickups: PickupService,
    private readonly random: RandomSource,
  ) {}

  private get postgres(): boolean {
    return this.ctx.db.dialect === 'postgres';
  }

  /** Whether the student may win one more free item now (5 in 7 days); locks them on PostgreSQL. */
  async mayWin(trx: Trx, claimantId: number): Promise<boolean> {
    await store.lockStudent(trx, claimantId, this.postgres);
    const since = this.ctx.clock() - CLAIMS_DURATIONS_MS.winWindow;
    return (await store.winsSince(trx, claimantId, since)) < CLAIMS_LIMITS.winsMax;
  }

  /**
   * Decides the order of the OPEN claims and hands the item to the first eligible claimant. With
   * `chosen` the giver's pick leads and the rest are drawn after it; otherwise all are drawn.
   */
  async decide(
    trx: Trx,
    listing: GiveawayListing,
    pool: readonly store.ClaimRow[],
    method: ClaimDrawMethod,
    byId: number | null,
    chosen?: store.ClaimRow,
  ): Promise<number> {
    const now = this.ctx.clock();
    const rest = pool.filter((c) => c.id !== chosen?.id);
    const order = chosen ? [chosen, ...shuffled(rest, this.random)] : shuffled(pool, this.random);
    const skipped: number[] = [];
    let winner: store.ClaimRow | undefined;
    for (const claim of order) {
      if (await this.mayWin(trx, claim.claimant_id)) {
        winner = claim;
        break;
      }
      skipped.push(claim.id);
    }
    // One decision per giveaway: a concurrent one (the giver and the automatic draw) finds it taken.
    const draw = await trx
      .insertInto('claim_draws')
      .values({
        listing_id: listing.id,
        method,
        by_id: byId,
        pool_ids: JSON.stringify(pool.map((c) => c.id).sort((a, b) => a - b)),
        order_ids: JSON.stringify(order.map((c) => c.id)),
        skipped_ids: JSON.stringify(skipped),
        winner_claim_id: winner?.id ?? null,
        at: now,
      })
      .onConflict((oc) => oc.column('listing_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!draw) throw conflict(CLAIMS_MESSAGES.alreadyDecided);
    for (const [i, claim] of order.entries()) {
      await trx
        .updateTable('claims')
        .set({ position: i + 1, updated_at: now })
        .where('id', '=', claim.id)
        .execute();
    }
    // Those over the win limit cannot get it from the line either.
    for (const id of skipped)
      await this.lose(
        trx,
        listing,
        order.find((c) => c.id === id)!,
      );
    if (winner) await this.win(trx, listing, winner, byId ?? 0);
    return draw.id;
  }

  /** The claim wins: CHOSEN, counted against the win limit, and the pickup starts. */
  private async win(trx: Trx, listing: GiveawayListing, claim: store.ClaimRow, actorId: number) {
    const now = this.ctx.clock();
    await trx
      .updateTable('claims')
      .set({ status: 'CHOSEN', won_at: now, updated_at: now })
      .where('id', '=', claim.id)
      .execute();
    const pickup = await this.pickups.start(trx, {
      listingId: listing.id,
      claimId: claim.id,
      claimantId: claim.claimant_id,
      actorId,
    });
    await this.ctx.domainEvents.announce(trx, 'claims.won', {
      claimantId: claim.claimant_id,
      listingId: listing.id,
      listingName: listing.name,
      roomId: pickup.roomId,
      pickupBy: pickup.pickupBy,
    });
  }

  /** An OPEN claim that will not get the item: LOST, and its student is told kindly. */
  async lose(trx: Trx, listing: GiveawayListing, claim: store.ClaimRow): Promise<void> {
    const now = this.ctx.clock();
    const row = await trx
      .updateTable('claims')
      .set({ status: 'LOST', updated_at: now })
      .where('id', '=', claim.id)
      .where('status', '=', 'OPEN')
      .executeTakeFirst();
    if (Number(row.numUpdatedRows) !== 1) return;
    await this.ctx.domainEvents.announce(trx, 'claims.lost', {
      claimantId: claim.claimant_id,
      listingId: listing.id,
      listingName: listing.name,
      othersNearby: await store.otherFreeItems(trx, claim.claimant_id, listing.id),
    });
  }

  /**
   * A pickup ended without a hand-off (deals' `deal.pickupEnded`): the claim is PASSED (unless its
   * student withdrew it) and the next eligible claimant in the drawn order gets the item; when the
   * giver gave it away elsewhere (SOLD) every claim still waiting loses.
   */
  async passOn(trx: Trx, listing: GiveawayListing, claimId: number, reason: PickupEndReason): Promise<void> {
    const now = this.ctx.clock();
    await trx
      .updateTable('claims')
      .set({ status: 'PASSED', updated_at: now })
      .where('id', '=', claimId)
      .where('status', '=', 'CHOSEN')
      .execute();
    const waiting = (await store.claimsOfListing(trx, listing.id, ['OPEN']))
      .filter((c) => c.position !== null)
      .sort((a, b) => a.position! - b.position!);
    if (reason === 'SOLD') {
      for (const claim of waiting) await this.lose(trx, listing, claim);
      return;
    }
    for (const claim of waiting) {
      if (await this.mayWin(trx, claim.claimant_id)) {
        await this.win(trx, listing, claim, 0);
        return;
      }
      await this.recordSkip(trx, listing.id, claim.id);
      await this.lose(trx, listing, claim);
    }
  }

  /** A claimant passed over in the line for the win limit joins the decision's skipped list. */
  private async recordSkip(trx: Trx, listingId: number, claimId: number): Promise<void> {
    const draw = await store.decisionOf(trx, listingId);
    if (!draw) return;
    const skipped = [...(JSON.parse(draw.skipped_ids) as number[]), claimId];
    await trx
      .updateTable('claim_draws')
      .set({ skipped_ids: JSON.stringify(skipped) })
      .where('id', '=', draw.id)
      .execute();
  }

  /** The hand-off happened: the winner's claim is DONE and everyone still waiting is told. */
  async finish(trx: Trx, listing: GiveawayListing, claimantId: number): Promise<void> {
    const now = this.ctx.clock();
    await trx
      .updateTable('claims')
      .set({ status: 'DONE', updated_at: now })
      .where('listing_id', '=', listing.id)
      .where('claimant_id', '=', claimantId)
      .where('status', '=', 'CHOSEN')
      .execute();
    for (const claim of await store.claimsOfListing(trx, listing.id, ['OPEN'])) {
      await this.lose(trx, listing, claim);
    }
  }
}
