import {
  BUNDLE_EVENTS,
  BUNDLE_MESSAGES,
  bundleBodySchema,
  centsToDollars,
  CLAIMS_MESSAGES,
  DEALS_MESSAGES,
  DEAL_EVENTS,
  offerBodySchema,
  type Offer,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { assertNotBlocked } from '../safety/index.js';
import {
  assertAllAvailable,
  declinePendingOn,
  lockBundle,
  lockListings,
  type LockedBundle,
} from './bundle-rules.js';
import { bundleListingIds, offerAnswer } from './bundle-store.js';
import { assertOfferBudget, takeConversationSlot } from './offer-limits.js';
import { firstName, insertOffer, setOfferStatus } from './offer-writes.js';
import { expireKey, type OffersService } from './offers.js';
import { markAccepted } from './reservations.js';
import type * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps } from './tx.js';

/**
 * Bundles (features.md §H): one offer for 2–10 AVAILABLE listings of one seller. A bundle is an
 * offer row (its `listing_id` the first listing, its lead) plus `offer_items`; decline, withdraw,
 * expiry, release and lapse are the single-listing code, which frees every listing of a bundle
 * (bundle-rules.ts). Making, accepting and countering differ: they check and reserve every listing.
 */
export class BundlesService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
    private readonly offers: OffersService,
  ) {}

  private run<T>(fn: (tx: DealsTx) => Promise<T>): Promise<T> {
    return inDealsTx(this.ctx, this.deps, fn);
  }

  /** Whether an offer is a bundle (its items are written with it and never change). */
  private async isBundle(offerId: number): Promise<boolean> {
    return (await bundleListingIds(this.ctx.db.kysely, offerId)).length > 0;
  }

  /** POST /bundles: a buyer's offer for several listings of one seller; supersedes their PENDING bundle. */
  make(userId: number, body: unknown): Promise<Offer> {
    const { listingIds, amount } = parseOr400(bundleBodySchema, body);
    return this.run(async (tx) => {
      const locked = await lockListings(tx, listingIds);
      const missing = listingIds.find((id) => !locked.has(id));
      if (missing !== undefined) throw notFound(BUNDLE_MESSAGES.listingMissing);
      const listings = listingIds.map((id) => locked.get(id)!);
      const lead = listings[0]!;
      if (listings.some((l) => l.seller_id !== lead.seller_id)) throw badRequest(BUNDLE_MESSAGES.oneSeller);
      if (lead.seller_id === userId) throw forbidden(BUNDLE_MESSAGES.ownListings);
      // A free item is claimed (features.md §H), never bought, alone or in a bundle.
      if (listings.some((l) => l.price_cents === 0)) throw conflict(CLAIMS_MESSAGES.offerOnFree);
      assertAllAvailable({ listings, missing: [] });
      await assertNotBlocked(this.ctx, userId, lead.seller_id, tx.db);
      await assertOfferBudget(tx, lead.id, userId, userId);
      const topic = DealsTx.topic(lead.id, lead.seller_id, userId);
      await takeConversationSlot(this.ctx, tx, topic.roomId, userId);
      await tx.openRoom(topic);
      const actor = await firstName(tx, userId);
      // One PENDING bundle per buyer and seller: a new one supersedes the last (like §A's offers).
      const previous = await tx.db
        .selectFrom('offers')
        .selectAll()
        .where('room_id', '=', topic.roomId)
        .where('buyer_id', '=', userId)
        .where('status', '=', 'PENDING')
        .where('id', 'in', (eb) => eb.selectFrom('offer_items').select('offer_id'))
        .execute();
      for (const old of previous) {
        const replaced = await setOfferStatus(
          this.ctx,
          tx,
          old,
          old.by_id === userId ? 'WITHDRAWN' : 'COUNTERED',
        );
        await tx.post(
          DealsTx.topic(old.listing_id, lead.seller_id, userId),
          {
            senderId: userId,
            kind: 'system',
            content:
              replaced.status === 'WITHDRAWN'
                ? DEAL_EVENTS.offerWithdrawn(actor, centsToDollars(old.amount_cents))
                : DEAL_EVENTS.offerCountered(actor, centsToDollars(amount)),
          },
          { offer: replaced },
        );
      }
      const offer = await this.insertBundle(
        tx,
        topic,
        { buyerId: userId, byId: userId, amountCents: amount },
        listingIds,
      );
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'offer',
          content: BUNDLE_EVENTS.offerMade(actor, listingIds.length, centsToDollars(amount)),
        },
        { offer },
        'OFFER_RECEIVED',
      );
      return offerAnswer(tx.db, this.ctx.photoStorage, offer);
    });
  }

  private async insertBundle(
    tx: DealsTx,
    topic: store.RoomTopic,
    o: { buyerId: number; byId: number; amountCents: number },
    listingIds: readonly number[],
  ): Promise<store.OfferRow> {
    const offer = await insertOffer(this.ctx, tx, {
      listingId: listingIds[0]!,
      roomId: topic.roomId,
      ...o,
      // A bundle is bought now: hold for fall is an offer on one listing (docs/decisions.md).
      holdUntil: null,
    });
    await tx.db
      .insertInto('offer_items')
      .values(
        listingIds.map((listingId, position) => ({ offer_id: offer.id, listing_id: listingId, position })),
      )
      .execute();
    return offer;
  }

  /** The bundle, locked, for the side that did not make it; PENDING. */
  private async answerable(tx: DealsTx, userId: number, offerId: number): Promise<LockedBundle> {
    const bundle = await lockBundle(tx, userId, offerId);
    if (!bundle) throw notFound(DEALS_MESSAGES.offerNotFound);
    await assertNotBlocked(this.ctx, bundle.offer.buyer_id, bundle.sellerId, tx.db);
    if (bundle.offer.status !== 'PENDING') throw conflict(DEALS_MESSAGES.offerNotPending);
    if (bundle.offer.by_id === userId) throw forbidden(DEALS_MESSAGES.offerOwnAnswer);
    return bundle;
  }

  /** POST /offers/{id}/accept: a bundle reserves all its listings at once, or none. */
  async accept(userId: number, offerId: number): Promise<Offer> {
    if (!(await this.isBundle(offerId))) return this.offers.accept(userId, offerId);
    return this.run(async (tx) => {
      const bundle = await this.answerable(tx, userId, offerId);
      assertAllAvailable(bundle);
      const { offer, sellerId } = bundle;
      const ids = bundle.listings.map((l) => l.id);
      // ACCEPTED offers left from reservations that ended by PUT /listings/sold are over.
      await tx.db
        .updateTable('offers')
        .set({ status: 'CANCELLED', updated_at: tx.now })
        .where('listing_id', 'in', ids)
        .where('status', '=', 'ACCEPTED')
        .execute();
      // Conditional on AVAILABLE: all or nothing even without the row locks (the throw rolls back).
      const reserved = await tx.db
        .updateTable('listings')
        .set({
          status: 'RESERVED',
          reserved_buyer_id: offer.buyer_id,
          accepted_offer_id: offer.id,
          updated_at: tx.now,
        })
        .where('id', 'in', ids)
        .where('status', '=', 'AVAILABLE')
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== ids.length)
        throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
      const accepted = await markAccepted(this.ctx, tx, offer);
      for (const id of ids) tx.touchListing(id);
      const actor = await firstName(tx, userId);
      await tx.post(
        DealsTx.topic(offer.listing_id, sellerId, offer.buyer_id),
        {
          senderId: userId,
          kind: 'system',
          content: BUNDLE_EVENTS.offerAccepted(actor, ids.length, centsToDollars(offer.amount_cents)),
        },
        { offer: accepted },
        'OFFER_ANSWERED',
      );
      // Every other PENDING offer on any of the listings is declined, each in its own room.
      for (const other of await declinePendingOn(tx, ids)) {
        await this.ctx.jobs.cancel(tx.db, expireKey(other.id));
        await tx.post(
          DealsTx.topic(other.listing_id, sellerId, other.buyer_id),
          {
            senderId: sellerId,
            kind: 'system',
            content: DEAL_EVENTS.offerDeclinedReserved(centsToDollars(other.amount_cents)),
          },
          { offer: other },
          'OFFER_ANSWERED',
        );
      }
      return offerAnswer(tx.db, this.ctx.photoStorage, accepted);
    });
  }

  /** POST /offers/{id}/counter: a bundle's counter is a new PENDING bundle of the same listings. */
  async counter(userId: number, offerId: number, body: unknown): Promise<Offer> {
    if (!(await this.isBundle(offerId))) return this.offers.counter(userId, offerId, body);
    const { amount } = parseOr400(offerBodySchema, body);
    return this.run(async (tx) => {
      const bundle = await this.answerable(tx, userId, offerId);
      assertAllAvailable(bundle);
      const { offer, sellerId } = bundle;
      if (amount === offer.amount_cents) throw conflict(DEALS_MESSAGES.offerCounterSame);
      await assertOfferBudget(tx, offer.listing_id, offer.buyer_id, userId);
      const topic = DealsTx.topic(offer.listing_id, sellerId, offer.buyer_id);
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
      const ids = bundle.listings.map((l) => l.id);
      const next = await this.insertBundle(
        tx,
        topic,
        { buyerId: offer.buyer_id, byId: userId, amountCents: amount },
        ids,
      );
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'offer',
          content: BUNDLE_EVENTS.offerMade(actor, ids.length, centsToDollars(amount)),
        },
        { offer: next },
        'OFFER_RECEIVED',
      );
      return offerAnswer(tx.db, this.ctx.photoStorage, next);
    });
  }
}
