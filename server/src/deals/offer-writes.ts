import { centsToDollars, DEALS_DURATIONS_MS, DEALS_MESSAGES, DEAL_EVENTS } from '@campus/contract';
import type { AppContext } from '../context.js';
import { conflict, notFound } from '../http/errors.js';
import { expireKey, JOB_OFFER_EXPIRE } from './reservations.js';
import * as store from './store.js';
import type { DealsTx } from './tx.js';

/**
 * The writes every kind of offer shares: a buyer's and its answers (offers.ts), a seller's in a
 * chat (seller-offers.ts) and a bundle (bundles.ts). Each runs inside the caller's deals
 * transaction.
 */

/** The listing, locked; 404 when it does not exist. */
export async function lockedListing(tx: DealsTx, id: number): Promise<store.DealListing> {
  const listing = await store.lockListing(tx.db, id, tx.postgres);
  if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
  return listing;
}

/** The first name system lines use. */
export async function firstName(tx: DealsTx, userId: number): Promise<string> {
  return (await store.firstNames(tx.db, [userId])).get(userId) ?? 'Someone';
}

/** Moves a PENDING offer on; 409 when it was answered meanwhile. */
export async function setOfferStatus(
  ctx: AppContext,
  tx: DealsTx,
  offer: store.OfferRow,
  status: store.OfferRow['status'],
): Promise<store.OfferRow> {
  const row = await tx.db
    .updateTable('offers')
    .set({ status, updated_at: tx.now })
    .where('id', '=', offer.id)
    .where('status', '=', offer.status)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw conflict(DEALS_MESSAGES.offerNotPending);
  if (offer.status === 'PENDING') await ctx.jobs.cancel(tx.db, expireKey(offer.id));
  return row;
}

/**
 * One PENDING offer per buyer and listing: a new one by `actorId` (the buyer, or the seller in
 * seller-offers.ts) withdraws the actor's own earlier one or counts as countering the other side's,
 * and says so in the room. Answers the offer it replaced, if any.
 */
export async function supersedePending(
  ctx: AppContext,
  tx: DealsTx,
  topic: store.RoomTopic,
  actorId: number,
  actor: string,
  newAmountCents: number,
): Promise<store.OfferRow | undefined> {
  const previous = await tx.db
    .selectFrom('offers')
    .selectAll()
    .where('listing_id', '=', topic.listingId)
    .where('buyer_id', '=', topic.buyerId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  if (!previous) return undefined;
  const replaced = await setOfferStatus(
    ctx,
    tx,
    previous,
    previous.by_id === actorId ? 'WITHDRAWN' : 'COUNTERED',
  );
  const text =
    replaced.status === 'WITHDRAWN'
      ? DEAL_EVENTS.offerWithdrawn(actor, centsToDollars(previous.amount_cents))
      : DEAL_EVENTS.offerCountered(actor, centsToDollars(newAmountCents));
  await tx.post(topic, { senderId: actorId, kind: 'system', content: text }, { offer: replaced });
  return previous;
}

/** A new PENDING offer and its expiry timer (bundles.ts adds its items). */
export async function insertOffer(
  ctx: AppContext,
  tx: DealsTx,
  o: {
    listingId: number;
    roomId: string;
    buyerId: number;
    byId: number;
    amountCents: number;
    holdUntil: string | null;
  },
): Promise<store.OfferRow> {
  const row = await tx.db
    .insertInto('offers')
    .values({
      listing_id: o.listingId,
      room_id: o.roomId,
      buyer_id: o.buyerId,
      by_id: o.byId,
      amount_cents: o.amountCents,
      status: 'PENDING',
      created_at: tx.now,
      expires_at: tx.now + DEALS_DURATIONS_MS.offerExpiry,
      updated_at: tx.now,
      accepted_at: null,
      handoff_code: null,
      hold_until: o.holdUntil,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.jobs.enqueue(
    tx.db,
    JOB_OFFER_EXPIRE,
    { offerId: row.id },
    {
      runAt: row.expires_at,
      key: expireKey(row.id),
    },
  );
  return row;
}
