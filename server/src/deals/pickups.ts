import { randomInt } from 'node:crypto';
import { CLAIMS_DURATIONS_MS, CLAIMS_MESSAGES, CLAIM_EVENTS, pickupTime, type Offer } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Trx } from '../events.js';
import { conflict } from '../http/errors.js';
import { JOB_RESERVATION_LAPSE, lapseKey, type OffersService } from './offers.js';
import * as store from './store.js';
import { DealsTx, type DealsDeps } from './tx.js';

/** A pickup as the claims module needs it: the reservation's offer and when it lapses. */
export interface Pickup {
  offer: Offer;
  roomId: string;
  /** Epoch ms: the pickup lapses then unless a meet-up is confirmed or the hand-off is done. */
  pickupBy: number;
}

/**
 * A free item's pickup (features.md §H) is a reservation like a sale's, so the meet-up, the
 * hand-off code, the deal at price 0 and reviews work unchanged: the claim's win creates an
 * ACCEPTED offer of 0 marked with its claim, which lapses 48 h after it starts (not 72 h) and whose
 * end is announced (`deal.pickupEnded`) for claims to pass the item on. Runs inside the claims
 * change's transaction, so a win and its reservation commit together (docs/decisions.md).
 */
export class PickupService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
    private readonly offers: OffersService,
  ) {}

  private tx(trx: Trx): DealsTx {
    return new DealsTx(this.ctx, this.deps, trx, this.ctx.clock(), this.ctx.db.dialect === 'postgres');
  }

  /** Reserves the AVAILABLE free listing for the claimant, in the pair's room (opened if new). */
  async start(
    trx: Trx,
    input: { listingId: number; claimId: number; claimantId: number; actorId: number },
  ): Promise<Pickup> {
    const tx = this.tx(trx);
    const listing = await store.lockListing(tx.db, input.listingId, tx.postgres);
    if (!listing || listing.price_cents !== 0) throw conflict(CLAIMS_MESSAGES.notAvailable);
    if (listing.status !== 'AVAILABLE') throw conflict(CLAIMS_MESSAGES.notAvailable);
    // An ACCEPTED offer left from a pickup that ended by PUT /listings/sold is over.
    await tx.db
      .updateTable('offers')
      .set({ status: 'CANCELLED', updated_at: tx.now })
      .where('listing_id', '=', listing.id)
      .where('status', '=', 'ACCEPTED')
      .execute();
    const topic = DealsTx.topic(listing.id, listing.seller_id, input.claimantId);
    await tx.openRoom(topic);
    const pickupBy = tx.now + CLAIMS_DURATIONS_MS.pickup;
    const offer = await tx.db
      .insertInto('offers')
      .values({
        listing_id: listing.id,
        room_id: topic.roomId,
        buyer_id: input.claimantId,
        by_id: listing.seller_id,
        amount_cents: 0,
        status: 'ACCEPTED',
        created_at: tx.now,
        expires_at: pickupBy,
        updated_at: tx.now,
        accepted_at: tx.now,
        handoff_code: String(randomInt(0, 10_000)).padStart(4, '0'),
        handoff_failures: 0,
        claim_id: input.claimId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const reserved = await tx.db
      .updateTable('listings')
      .set({
        status: 'RESERVED',
        reserved_buyer_id: input.claimantId,
        accepted_offer_id: offer.id,
        updated_at: tx.now,
      })
      .where('id', '=', listing.id)
      .where('status', '=', 'AVAILABLE')
      .executeTakeFirst();
    if (Number(reserved.numUpdatedRows) !== 1) throw conflict(CLAIMS_MESSAGES.notAvailable);
    await this.ctx.jobs.enqueue(
      tx.db,
      JOB_RESERVATION_LAPSE,
      { offerId: offer.id },
      { runAt: pickupBy, key: lapseKey(offer.id) },
    );
    tx.touchListing(listing.id);
    const name = (await store.firstNames(tx.db, [input.claimantId])).get(input.claimantId) ?? 'Someone';
    // The campus's clock: both students are there.
    const by = pickupTime(pickupBy, this.ctx.campuses.byId(requireCampusId()).timeZone);
    await tx.post(
      topic,
      // The pickup's card: an offer card whose offer has a claimId; later changes are system lines.
      {
        senderId: input.actorId,
        kind: 'offer',
        content: CLAIM_EVENTS.pickupStarted(name, listing.name, by),
      },
      { offer },
    );
    await tx.announceListings();
    return { offer: store.toOffer(offer), roomId: topic.roomId, pickupBy };
  }

  /** The winner gives the pickup up (withdrawing their claim): it ends and the item passes on. */
  async giveUp(trx: Trx, listingId: number, claimantId: number): Promise<void> {
    const tx = this.tx(trx);
    const listing = await store.lockListing(tx.db, listingId, tx.postgres);
    if (!listing || listing.status !== 'RESERVED' || listing.reserved_buyer_id !== claimantId) return;
    if (listing.accepted_offer_id === null) return;
    const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
    if (!offer || offer.claim_id === null) return;
    const name = (await store.firstNames(tx.db, [claimantId])).get(claimantId) ?? 'Someone';
    await this.offers.endReservation(
      tx,
      listing,
      'CANCELLED',
      { senderId: claimantId, content: CLAIM_EVENTS.pickupGivenUp(name) },
      'GIVEN_UP',
    );
    await tx.announceListings();
  }
}
