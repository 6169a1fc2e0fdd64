import { timingSafeEqual } from 'node:crypto';
import {
  BUNDLE_EVENTS,
  bundleDealName,
  centsToDollars,
  DEALS_LIMITS,
  DEALS_MESSAGES,
  DEAL_EVENTS,
  handoffBodySchema,
  type Deal,
  type HandoffCode,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { lockReservation } from './bundle-rules.js';
import { bundleListingIds } from './bundle-store.js';
import { JOB_RESERVATION_LAPSE } from './offers.js';
import * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps } from './tx.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A hand-off confirmed the sale and recorded the deal. In the transaction: notifications tells
     * both students and schedules the review request.
     */
    'deal.confirmed': { deal: Deal };
  }
}

type Outcome = { ok: true; deal: Deal } | { ok: false; locked: boolean; triesLeft: number };

/** The hand-off code (features.md §A): the buyer shows it, the seller types it, the sale is confirmed. */
export class HandoffService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
  ) {}

  /** GET /listings/{id}/handoff: the reserved buyer only. */
  async code(userId: number, listingId: number): Promise<HandoffCode> {
    const db = this.ctx.db.kysely;
    const listing = await store.findListing(db, listingId);
    if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
    if (listing.status !== 'RESERVED' || listing.accepted_offer_id === null) {
      if (userId !== listing.seller_id && userId !== listing.reserved_buyer_id) {
        throw forbidden(DEALS_MESSAGES.handoffNotBuyer);
      }
      throw conflict(DEALS_MESSAGES.handoffNotReserved);
    }
    if (userId !== listing.reserved_buyer_id) throw forbidden(DEALS_MESSAGES.handoffNotBuyer);
    const offer = await store.findOffer(db, listing.accepted_offer_id);
    if (!offer?.handoff_code) throw conflict(DEALS_MESSAGES.handoffNotReserved);
    return { code: offer.handoff_code };
  }

  /**
   * POST /listings/{id}/handoff {code}: the seller only. The right code sells the listing to the
   * reserved buyer and records the deal; wrong tries are counted (and kept: the count commits even
   * though the answer is an error), and the fifth locks hand-off for this reservation.
   */
  async confirm(userId: number, listingId: number, body: unknown): Promise<{ deal: Deal }> {
    const { code } = parseOr400(handoffBodySchema, body);
    const outcome = await inDealsTx<Outcome>(this.ctx, this.deps, async (tx) => {
      const listing = await lockReservation(tx, listingId);
      if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
      if (listing.seller_id !== userId) throw forbidden(DEALS_MESSAGES.handoffNotSeller);
      if (listing.status !== 'RESERVED' || listing.accepted_offer_id === null) {
        throw conflict(DEALS_MESSAGES.handoffNotReserved);
      }
      const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
      if (!offer?.handoff_code) throw conflict(DEALS_MESSAGES.handoffNotReserved);
      if (offer.handoff_failures >= DEALS_LIMITS.handoffMaxFailures)
        throw conflict(DEALS_MESSAGES.handoffLocked);
      // A bundle's room topic is its first listing, where its meet-up is filed.
      const topic = DealsTx.topic(offer.listing_id, listing.seller_id, offer.buyer_id);
      if (!sameCode(code, offer.handoff_code)) {
        const failures = offer.handoff_failures + 1;
        await tx.db
          .updateTable('offers')
          .set({ handoff_failures: failures, updated_at: tx.now })
          .where('id', '=', offer.id)
          .execute();
        const locked = failures >= DEALS_LIMITS.handoffMaxFailures;
        if (locked) {
          await tx.post(
            topic,
            { senderId: userId, kind: 'system', content: DEAL_EVENTS.handoffLocked() },
            { offer },
          );
        }
        return { ok: false, locked, triesLeft: DEALS_LIMITS.handoffMaxFailures - failures };
      }
      return { ok: true, deal: await this.complete(tx, listing, offer, topic) };
    });
    if (!outcome.ok) {
      if (outcome.locked) throw conflict(DEALS_MESSAGES.handoffLocked);
      throw badRequest(DEALS_MESSAGES.handoffWrong(outcome.triesLeft));
    }
    return { deal: outcome.deal };
  }

  private async complete(
    tx: DealsTx,
    listing: store.DealListing,
    offer: store.OfferRow,
    topic: store.RoomTopic,
  ): Promise<Deal> {
    // Every listing the reservation holds: the one listing, or each listing of a bundle.
    const items = await tx.db
      .selectFrom('listings')
      .select(['id', 'name'])
      .where('accepted_offer_id', '=', offer.id)
      .where('status', '=', 'RESERVED')
      .execute();
    const order = await bundleListingIds(tx.db, offer.id);
    const sold = order.length > 0 ? order.flatMap((id) => items.filter((i) => i.id === id)) : [listing];
    await tx.db
      .updateTable('listings')
      .set({ status: 'SOLD', is_sold: 1, updated_at: tx.now })
      .where(
        'id',
        'in',
        sold.map((i) => i.id),
      )
      .execute();
    for (const item of sold) tx.touchListing(item.id);
    const bundle = order.length > 0;
    const deal = await tx.db
      .insertInto('deals')
      .values({
        listing_id: bundle ? offer.listing_id : listing.id,
        listing_name: bundle ? bundleDealName(sold.map((i) => i.name)) : listing.name,
        seller_id: listing.seller_id,
        buyer_id: offer.buyer_id,
        price_cents: offer.amount_cents,
        completed_at: tx.now,
        offer_id: offer.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (bundle) {
      await tx.db
        .insertInto('deal_items')
        .values(
          sold.map((i, position) => ({ deal_id: deal.id, listing_id: i.id, listing_name: i.name, position })),
        )
        .execute();
    }
    await this.ctx.jobs.cancel(tx.db, `${JOB_RESERVATION_LAPSE}:${offer.id}`);
    const meetup = await tx.db
      .updateTable('meetups')
      .set({ status: 'DONE', updated_at: tx.now })
      .where('room_id', '=', topic.roomId)
      .where('listing_id', '=', topic.listingId)
      .where('status', 'in', ['PROPOSED', 'CONFIRMED'])
      .returningAll()
      .executeTakeFirst();
    await tx.post(
      topic,
      {
        senderId: listing.seller_id,
        kind: 'system',
        content: bundle
          ? BUNDLE_EVENTS.handoffDone(sold.length, centsToDollars(offer.amount_cents))
          : DEAL_EVENTS.handoffDone(listing.name, centsToDollars(offer.amount_cents)),
      },
      meetup ? { meetup } : { offer },
    );
    const answer = store.toDeal(
      deal,
      bundle ? sold.map((i) => ({ listingId: i.id, listingName: i.name })) : undefined,
    );
    // The deals transaction is opened on Kysely directly, so the fact is told inside it only.
    await this.ctx.domainEvents.announce(tx.db, 'deal.confirmed', { deal: answer });
    return answer;
  }
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
