import { centsToDollars, DEALS_MESSAGES, DEAL_EVENTS, parseRoomId, type Offer } from '@campus/contract';
import type { AppContext } from '../context.js';
import { conflict, forbidden } from '../http/errors.js';
import { assertNotBlocked } from '../safety/index.js';
import { assertOfferBudget } from './offer-limits.js';
import { firstName, insertOffer, supersedePending } from './offer-writes.js';
import * as store from './store.js';
import { DealsTx } from './tx.js';

/**
 * The seller offers their listing, in a chat, to the other student of that chat at the price the
 * two agreed (POST /listings/{id}/offers with `roomId`, docs/decisions.md "Seller offers"): the
 * same PENDING offer a counter-offer is (byId = the seller), so the buyer accepts, declines or
 * counters it and accepting reserves the listing for them. Only into a chat that exists: a seller
 * cannot start a conversation with an offer, and a chat never crosses campuses (rooms are the
 * campus's own), so a student of another campus answers as one who never chatted.
 */
export async function offerInChat(
  ctx: AppContext,
  tx: DealsTx,
  listing: store.DealListing,
  roomId: string,
  amountCents: number,
  holdUntil: string | null,
): Promise<Offer> {
  const sellerId = listing.seller_id;
  const pair = parseRoomId(roomId);
  if (!pair || !pair.includes(sellerId)) throw forbidden(DEALS_MESSAGES.offerNoRoom);
  const buyerId = pair[0] === sellerId ? pair[1] : pair[0];
  if ((await tx.roomMessageCount(roomId)) === undefined) throw forbidden(DEALS_MESSAGES.offerNoRoom);
  await assertNotBlocked(ctx, sellerId, buyerId, tx.db);
  if (listing.status !== 'AVAILABLE') throw conflict(DEALS_MESSAGES.offerListingNotAvailable);
  await assertOfferBudget(tx, listing.id, buyerId, sellerId);
  const topic = DealsTx.topic(listing.id, sellerId, buyerId);
  const actor = await firstName(tx, sellerId);
  // The seller's new offer answers the buyer's (COUNTERED) or replaces their own earlier one.
  const previous = await supersedePending(ctx, tx, topic, sellerId, actor, amountCents);
  const offer = await insertOffer(ctx, tx, {
    listingId: listing.id,
    roomId,
    buyerId,
    byId: sellerId,
    amountCents,
    // Hold for fall: the seller's own day, else the day of the buyer's offer it answers (a counter
    // keeps the hold, docs/decisions.md).
    holdUntil: holdUntil ?? (previous && previous.by_id !== sellerId ? previous.hold_until : null),
  });
  await tx.post(
    topic,
    { senderId: sellerId, kind: 'offer', content: DEAL_EVENTS.offerMade(actor, centsToDollars(amountCents)) },
    { offer },
    'OFFER_RECEIVED',
  );
  return store.toOffer(offer);
}
