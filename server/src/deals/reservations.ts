import { randomInt } from 'node:crypto';
import {
  centsToDollars,
  CLAIM_EVENTS,
  DEALS_DURATIONS_MS,
  DEALS_MESSAGES,
  DEAL_EVENTS,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { conflict } from '../http/errors.js';
import { freeBundleListings, lockReservation } from './bundle-rules.js';
import { reservationBaseDeadline } from './hold.js';
import { cancelOpenMeetups } from './meetup-rules.js';
import * as store from './store.js';
import { DealsTx, type PickupEndReason } from './tx.js';

/**
 * Reservations end and offers time out (features.md §A): ending a reservation (release, lapse, a
 * sale, a removal), the PENDING offer's 48 h expiry and the reservation's lapse, as durable jobs.
 */

export const JOB_OFFER_EXPIRE = 'deals.offer-expire';
export const JOB_RESERVATION_LAPSE = 'deals.reservation-lapse';
export const expireKey = (offerId: number) => `${JOB_OFFER_EXPIRE}:${offerId}`;
export const lapseKey = (offerId: number, at?: number) =>
  at === undefined ? `${JOB_RESERVATION_LAPSE}:${offerId}` : `${JOB_RESERVATION_LAPSE}:${offerId}:${at}`;

/** Runs work in one deals transaction (OffersService's). */
type Run = <T>(fn: (tx: DealsTx) => Promise<T>) => Promise<T>;

/** What the expiry needs of the offers service: its one conditional status write. */
interface OfferStatusWriter {
  setStatus(tx: DealsTx, offer: store.OfferRow, status: store.OfferRow['status']): Promise<store.OfferRow>;
}

/**
 * A PENDING offer becomes ACCEPTED with a fresh hand-off code (409 when it was answered meanwhile):
 * its expiry is cancelled and the lapse check filed for 72 h from now, or 48 h after the hold day of
 * a held offer (hold.ts). The caller has reserved the listing(s) in the same transaction.
 */
export async function markAccepted(
  ctx: AppContext,
  tx: DealsTx,
  offer: store.OfferRow,
): Promise<store.OfferRow> {
  await ctx.jobs.cancel(tx.db, expireKey(offer.id));
  const accepted = await tx.db
    .updateTable('offers')
    .set({
      status: 'ACCEPTED',
      accepted_at: tx.now,
      updated_at: tx.now,
      handoff_code: String(randomInt(0, 10_000)).padStart(4, '0'),
      handoff_failures: 0,
    })
    .where('id', '=', offer.id)
    .where('status', '=', 'PENDING')
    .returningAll()
    .executeTakeFirst();
  if (!accepted) throw conflict(DEALS_MESSAGES.offerNotPending);
  await ctx.jobs.enqueue(
    tx.db,
    JOB_RESERVATION_LAPSE,
    { offerId: offer.id },
    { runAt: reservationBaseDeadline(ctx, accepted), key: lapseKey(offer.id) },
  );
  return accepted;
}

/**
 * Ends a reservation (release or lapse): the accepted offer becomes `status`, the listing
 * AVAILABLE, open meet-ups about it in the pair's room CANCELLED, the buyer's hand-off code gone;
 * a system message tells both. Also used when the seller marks a reserved listing sold (sold.ts).
 */
export async function endReservation(
  ctx: AppContext,
  tx: DealsTx,
  listing: store.DealListing,
  status: 'CANCELLED' | 'EXPIRED',
  message: { senderId: number; content: string },
  reason: PickupEndReason = status === 'EXPIRED' ? 'LAPSED' : 'RELEASED',
): Promise<void> {
  await tx.db
    .updateTable('listings')
    .set({ status: 'AVAILABLE', reserved_buyer_id: null, accepted_offer_id: null, updated_at: tx.now })
    .where('id', '=', listing.id)
    .execute();
  tx.touchListing(listing.id);
  if (listing.accepted_offer_id === null) return;
  // A bundle's reservation is one: every other listing it reserved is freed with this one.
  await freeBundleListings(tx, listing.accepted_offer_id);
  const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
  if (!offer) return;
  const row = await tx.db
    .updateTable('offers')
    .set({ status, updated_at: tx.now, handoff_code: null })
    .where('id', '=', offer.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.jobs.cancel(tx.db, lapseKey(offer.id));
  // The offer's own listing (a bundle's first): its meet-ups are filed under it.
  const topic = DealsTx.topic(offer.listing_id, listing.seller_id, offer.buyer_id);
  await cancelOpenMeetups(tx, topic, message.senderId);
  await tx.post(
    topic,
    { senderId: message.senderId, kind: 'system', content: message.content },
    { offer: row },
    'OFFER_ANSWERED',
  );
  // A free item's pickup ended: the claims module passes it on (or closes the giveaway).
  if (offer.claim_id !== null) {
    await tx.announceListings();
    await ctx.domainEvents.announce(tx.db, 'deal.pickupEnded', {
      listingId: listing.id,
      claimId: offer.claim_id,
      claimantId: offer.buyer_id,
      reason,
    });
  }
}

/** A PENDING offer 48 h old expires. */
function expire(run: Run, offers: OfferStatusWriter, offerId: number): Promise<void> {
  return run(async (tx) => {
    const first = await store.findOffer(tx.db, offerId);
    if (!first || first.status !== 'PENDING') return;
    const listing = await store.lockListing(tx.db, first.listing_id, tx.postgres);
    const offer = await store.findOffer(tx.db, offerId);
    if (!listing || !offer || offer.status !== 'PENDING' || offer.expires_at > tx.now) return;
    const row = await offers.setStatus(tx, offer, 'EXPIRED');
    await tx.post(
      DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id),
      {
        senderId: 0,
        kind: 'system',
        content: DEAL_EVENTS.offerExpired(centsToDollars(offer.amount_cents)),
      },
      { offer: row },
      'OFFER_ANSWERED',
    );
  });
}

/**
 * A reservation lapses 72 h after acceptance with no CONFIRMED meet-up, or 48 h after a
 * CONFIRMED meet-up's time, when no deal was confirmed. Runs at the earliest deadline; when a
 * later one applies (a meet-up was confirmed), it schedules itself again for then.
 */
function lapse(ctx: AppContext, run: Run, offerId: number): Promise<void> {
  return run(async (tx) => {
    const first = await store.findOffer(tx.db, offerId);
    if (!first || first.status !== 'ACCEPTED') return;
    const listing = await lockReservation(tx, first.listing_id);
    if (!listing || listing.status !== 'RESERVED' || listing.accepted_offer_id !== offerId) return;
    const deadline = await lapseDeadline(ctx, tx, first);
    if (deadline > tx.now) {
      await ctx.jobs.enqueue(
        tx.db,
        JOB_RESERVATION_LAPSE,
        { offerId },
        {
          runAt: deadline,
          key: lapseKey(offerId, deadline),
        },
      );
      return;
    }
    await endReservation(ctx, tx, listing, 'EXPIRED', {
      senderId: 0,
      content: first.claim_id === null ? DEAL_EVENTS.reservationLapsed() : CLAIM_EVENTS.pickupLapsed(),
    });
  });
}

/** When an accepted offer's reservation lapses: its base deadline, or 48 h after a confirmed meet-up. */
export async function lapseDeadline(ctx: AppContext, tx: DealsTx, offer: store.OfferRow): Promise<number> {
  const confirmed = await tx.db
    .selectFrom('meetups')
    .select('starts_at')
    .where('room_id', '=', offer.room_id)
    .where('listing_id', '=', offer.listing_id)
    .where('status', '=', 'CONFIRMED')
    .executeTakeFirst();
  const base = reservationBaseDeadline(ctx, offer);
  if (!confirmed) return base;
  const afterMeetup = Number(confirmed.starts_at) + DEALS_DURATIONS_MS.reservationAfterMeetup;
  // A held item stays held until its day has passed, even when the meet-up is earlier.
  return offer.hold_until ? Math.max(base, afterMeetup) : afterMeetup;
}

/** A meet-up was confirmed: make sure the lapse check runs at its new deadline. */
export async function scheduleLapseCheck(
  ctx: AppContext,
  tx: DealsTx,
  offerId: number,
  at: number,
): Promise<void> {
  await ctx.jobs.enqueue(
    tx.db,
    JOB_RESERVATION_LAPSE,
    { offerId },
    { runAt: at, key: lapseKey(offerId, at) },
  );
}

/** The offer timers (durable jobs; each re-checks the state, so a late or repeated run is harmless). */
export function registerOfferTimers(ctx: AppContext, run: Run, offers: OfferStatusWriter): void {
  ctx.jobs.register<{ offerId: number }>(JOB_OFFER_EXPIRE, (p) => expire(run, offers, p.offerId));
  ctx.jobs.register<{ offerId: number }>(JOB_RESERVATION_LAPSE, (p) => lapse(ctx, run, p.offerId));
}
