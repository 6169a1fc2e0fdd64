import {
  centsToDollars,
  CLAIMS_MESSAGES,
  DEALS_MESSAGES,
  DEAL_EVENTS,
  makeOfferBodySchema,
  offerBodySchema,
  roomIdFor,
  type Offer,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { assertNotBlocked } from '../safety/index.js';
import { checkHoldDay, scheduleHoldReminders } from './hold.js';
import { declinePendingOn, lockReservation } from './bundle-rules.js';
import { assertOfferBudget, takeConversationSlot } from './offer-limits.js';
import { offerAnswer, offerAnswers } from './bundle-store.js';
import {
  endReservation,
  expireKey,
  lapseDeadline,
  markAccepted,
  registerOfferTimers,
  scheduleLapseCheck,
} from './reservations.js';
import { firstName, insertOffer, lockedListing, setOfferStatus, supersedePending } from './offer-writes.js';
import { offerInChat } from './seller-offers.js';
import * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps, type PickupEndReason } from './tx.js';

export { expireKey, JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE, lapseKey } from './reservations.js';

/** Offers and reservations (features.md §A "Offers"): every change is one transaction. */
export class OffersService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
  ) {}

  private run<T>(fn: (tx: DealsTx) => Promise<T>): Promise<T> {
    return inDealsTx(this.ctx, this.deps, fn);
  }

  /** The offer and its listing (locked), for a party of the offer; 404 / 403 otherwise. */
  private async offerFor(tx: DealsTx, userId: number, offerId: number) {
    const first = await store.findOffer(tx.db, offerId);
    if (!first) throw notFound(DEALS_MESSAGES.offerNotFound);
    const listing = await lockedListing(tx, first.listing_id);
    // Read again under the listing's lock: this is the state the change applies to.
    const offer = (await store.findOffer(tx.db, offerId))!;
    if (userId !== offer.buyer_id && userId !== listing.seller_id)
      throw forbidden(DEALS_MESSAGES.offerNotYours);
    await assertNotBlocked(this.ctx, offer.buyer_id, listing.seller_id, tx.db);
    return { offer, listing };
  }

  /**
   * POST /listings/{id}/offers: a buyer's offer; a new one supersedes their PENDING one. The seller
   * naming a chat (roomId) offers the listing to its other student instead (seller-offers.ts).
   */
  make(userId: number, listingId: number, body: unknown): Promise<Offer> {
    const { amount, roomId, holdUntil } = parseOr400(makeOfferBodySchema, body);
    return this.run(async (tx) => {
      const hold = checkHoldDay(this.ctx, tx.now, holdUntil);
      const listing = await lockedListing(tx, listingId);
      // A free item is claimed (features.md §H): its pickup is created by the claims module.
      if (listing.price_cents === 0) throw conflict(CLAIMS_MESSAGES.offerOnFree);
      if (listing.seller_id === userId) {
        if (roomId === undefined) throw forbidden(DEALS_MESSAGES.offerOwnListing);
        return offerInChat(this.ctx, tx, listing, roomId, amount, hold);
      }
      if (roomId !== undefined && roomId !== roomIdFor(userId, listing.seller_id))
        throw forbidden(DEALS_MESSAGES.offerRoomNotYours);
      if (listing.status !== 'AVAILABLE') throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
      // A block between the two stops offers as it stops messages (features.md §C).
      await assertNotBlocked(this.ctx, userId, listing.seller_id, tx.db);
      await assertOfferBudget(tx, listingId, userId, userId);
      const topic = DealsTx.topic(listingId, listing.seller_id, userId);
      await takeConversationSlot(this.ctx, tx, topic.roomId, userId);
      await tx.openRoom(topic);
      const actor = await firstName(tx, userId);
      await supersedePending(this.ctx, tx, topic, userId, actor, amount);
      const offer = await insertOffer(this.ctx, tx, {
        listingId,
        roomId: topic.roomId,
        buyerId: userId,
        byId: userId,
        amountCents: amount,
        holdUntil: hold,
      });
      await tx.post(
        topic,
        { senderId: userId, kind: 'offer', content: DEAL_EVENTS.offerMade(actor, centsToDollars(amount)) },
        { offer },
        'OFFER_RECEIVED',
      );
      return store.toOffer(offer);
    });
  }

  /** POST /offers/{id}/accept: the side that did not make it; reserves the listing for the buyer. */
  accept(userId: number, offerId: number): Promise<Offer> {
    return this.run(async (tx) => {
      const { offer, listing } = await this.offerFor(tx, userId, offerId);
      if (offer.status !== 'PENDING') throw conflict(DEALS_MESSAGES.offerNotPending);
      if (offer.by_id === userId) throw forbidden(DEALS_MESSAGES.offerOwnAnswer);
      if (listing.status !== 'AVAILABLE') throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
      // An ACCEPTED offer left from a reservation that ended by PUT /listings/sold is over.
      await tx.db
        .updateTable('offers')
        .set({ status: 'CANCELLED', updated_at: tx.now })
        .where('listing_id', '=', listing.id)
        .where('status', '=', 'ACCEPTED')
        .execute();
      // Conditional on AVAILABLE: even without the row lock, a second accept finds nothing to update.
      const reserved = await tx.db
        .updateTable('listings')
        .set({
          status: 'RESERVED',
          reserved_buyer_id: offer.buyer_id,
          accepted_offer_id: offer.id,
          updated_at: tx.now,
        })
        .where('id', '=', listing.id)
        .where('status', '=', 'AVAILABLE')
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== 1) throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
      const accepted = await markAccepted(this.ctx, tx, offer);
      await scheduleHoldReminders(this.ctx, tx, accepted);
      tx.touchListing(listing.id);
      const actor = await firstName(tx, userId);
      await tx.post(
        DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id),
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.offerAccepted(actor, centsToDollars(offer.amount_cents)),
        },
        { offer: accepted },
        'OFFER_ANSWERED',
      );
      // Every other PENDING offer on the listing is declined, each in its own room; so is every
      // PENDING bundle that holds it (features.md §H: it could no longer be accepted).
      const others = await declinePendingOn(tx, [listing.id]);
      for (const other of others) {
        await this.ctx.jobs.cancel(tx.db, expireKey(other.id));
        await tx.post(
          DealsTx.topic(other.listing_id, listing.seller_id, other.buyer_id),
          {
            senderId: listing.seller_id,
            kind: 'system',
            content: DEAL_EVENTS.offerDeclinedReserved(centsToDollars(other.amount_cents)),
          },
          { offer: other },
          'OFFER_ANSWERED',
        );
      }
      return store.toOffer(accepted);
    });
  }

  /** POST /offers/{id}/decline: the side that did not make it. */
  decline(userId: number, offerId: number): Promise<Offer> {
    return this.run(async (tx) => {
      const { offer, listing } = await this.offerFor(tx, userId, offerId);
      if (offer.status !== 'PENDING') throw conflict(DEALS_MESSAGES.offerNotPending);
      if (offer.by_id === userId) throw forbidden(DEALS_MESSAGES.offerOwnAnswer);
      const row = await setOfferStatus(this.ctx, tx, offer, 'DECLINED');
      await tx.post(
        DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id),
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.offerDeclined(await firstName(tx, userId), centsToDollars(offer.amount_cents)),
        },
        { offer: row },
        'OFFER_ANSWERED',
      );
      return offerAnswer(tx.db, this.ctx.photoStorage, row);
    });
  }

  /** POST /offers/{id}/counter: the side that did not make it answers with a new amount. */
  counter(userId: number, offerId: number, body: unknown): Promise<Offer> {
    const { amount, holdUntil } = parseOr400(offerBodySchema, body);
    return this.run(async (tx) => {
      const { offer, listing } = await this.offerFor(tx, userId, offerId);
      if (offer.status !== 'PENDING') throw conflict(DEALS_MESSAGES.offerNotPending);
      if (offer.by_id === userId) throw forbidden(DEALS_MESSAGES.offerOwnAnswer);
      if (listing.status !== 'AVAILABLE') throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
      if (amount === offer.amount_cents) throw conflict(DEALS_MESSAGES.offerCounterSame);
      // A counter keeps the hold it answers, unless it names its own (null: no hold).
      const hold = holdUntil === undefined ? offer.hold_until : checkHoldDay(this.ctx, tx.now, holdUntil);
      await assertOfferBudget(tx, listing.id, offer.buyer_id, userId);
      const topic = DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id);
      const actor = await firstName(tx, userId);
      const old = await setOfferStatus(this.ctx, tx, offer, 'COUNTERED');
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.offerCountered(actor, centsToDollars(amount)),
        },
        { offer: old },
      );
      const next = await insertOffer(this.ctx, tx, {
        listingId: listing.id,
        roomId: topic.roomId,
        buyerId: offer.buyer_id,
        byId: userId,
        amountCents: amount,
        holdUntil: hold,
      });
      await tx.post(
        topic,
        { senderId: userId, kind: 'offer', content: DEAL_EVENTS.offerMade(actor, centsToDollars(amount)) },
        { offer: next },
        'OFFER_RECEIVED',
      );
      return store.toOffer(next);
    });
  }

  /** POST /offers/{id}/withdraw: its author only. */
  withdraw(userId: number, offerId: number): Promise<Offer> {
    return this.run(async (tx) => {
      const { offer, listing } = await this.offerFor(tx, userId, offerId);
      if (offer.by_id !== userId) throw forbidden(DEALS_MESSAGES.offerWithdrawNotAuthor);
      if (offer.status !== 'PENDING') throw conflict(DEALS_MESSAGES.offerNotPending);
      const row = await setOfferStatus(this.ctx, tx, offer, 'WITHDRAWN');
      await tx.post(
        DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id),
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.offerWithdrawn(
            await firstName(tx, userId),
            centsToDollars(offer.amount_cents),
          ),
        },
        { offer: row },
      );
      return offerAnswer(tx.db, this.ctx.photoStorage, row);
    });
  }

  /** GET /listings/{id}/offers: all for the seller, their own for anyone else; newest first. */
  async list(userId: number, listingId: number, limit: number, beforeId?: number) {
    const listing = await store.findListing(this.ctx.db.kysely, listingId);
    if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
    // A bundle shows among the offers of every listing it holds (docs/decisions.md "Bundles").
    let q = this.ctx.db.kysely
      .selectFrom('offers')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('listing_id', '=', listingId),
          eb(
            'id',
            'in',
            eb.selectFrom('offer_items').select('offer_id').where('offer_items.listing_id', '=', listingId),
          ),
        ]),
      )
      .where('campus_id', '=', requireCampusId());
    if (listing.seller_id !== userId) q = q.where('buyer_id', '=', userId);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    return {
      offers: await offerAnswers(this.ctx.db.kysely, this.ctx.photoStorage, page),
      next: more ? page[page.length - 1]!.id : undefined,
    };
  }

  /** POST /listings/{id}/release: the seller ends the reservation; the listing is AVAILABLE again. */
  release(userId: number, listingId: number): Promise<{ id: number; status: 'AVAILABLE' }> {
    return this.run(async (tx) => {
      const listing = await lockReservation(tx, listingId);
      if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
      if (listing.seller_id !== userId) throw forbidden(DEALS_MESSAGES.releaseNotSeller);
      if (listing.status !== 'RESERVED') throw conflict(DEALS_MESSAGES.releaseNotReserved);
      await this.endReservation(tx, listing, 'CANCELLED', {
        senderId: userId,
        content: DEAL_EVENTS.reservationReleased(await firstName(tx, userId)),
      });
      return { id: listingId, status: 'AVAILABLE' as const };
    });
  }

  /** Ends a reservation (release, lapse, a sale, a removal): reservations.ts. */
  endReservation(
    tx: DealsTx,
    listing: store.DealListing,
    status: 'CANCELLED' | 'EXPIRED',
    message: { senderId: number; content: string },
    reason?: PickupEndReason,
  ): Promise<void> {
    return endReservation(this.ctx, tx, listing, status, message, reason);
  }

  /** When an accepted offer's reservation lapses (reservations.ts). */
  lapseDeadline(tx: DealsTx, offer: store.OfferRow): Promise<number> {
    return lapseDeadline(this.ctx, tx, offer);
  }

  /** A meet-up was confirmed: make sure the lapse check runs at its new deadline. */
  scheduleLapseCheck(tx: DealsTx, offerId: number, at: number): Promise<void> {
    return scheduleLapseCheck(this.ctx, tx, offerId, at);
  }

  /** The expiry and lapse timers (reservations.ts). */
  registerJobs(): void {
    registerOfferTimers(this.ctx, (fn) => this.run(fn), {
      setStatus: (tx, offer, status) => setOfferStatus(this.ctx, tx, offer, status),
    });
  }
}
