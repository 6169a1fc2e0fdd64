import { DEALS_LIMITS, DEALS_MESSAGES, ERROR_CODES } from '@campus/contract';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { takeDaily } from '../safety/index.js';
import type { DealsTx } from './tx.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Offers are throttled per student, listing and buyer (each one tells the other side): at most
 * DEALS_LIMITS.offersPerMinute a minute and offersPerDay a day, counted from the offers table under
 * the listing's lock, so every process and both databases agree. 429 with Retry-After.
 */
export async function assertOfferBudget(
  tx: DealsTx,
  listingId: number,
  buyerId: number,
  byId: number,
): Promise<void> {
  const recent = await tx.db
    .selectFrom('offers')
    .select('created_at')
    .where('listing_id', '=', listingId)
    .where('buyer_id', '=', buyerId)
    .where('by_id', '=', byId)
    .where('created_at', '>', tx.now - DAY_MS)
    .orderBy('created_at', 'desc')
    .limit(DEALS_LIMITS.offersPerDay)
    .execute();
  const times = recent.map((r) => Number(r.created_at));
  const refuse = (message: string, freesAt: number) =>
    new HttpError(429, message, ERROR_CODES.rateLimited, {
      'retry-after': String(Math.max(1, Math.ceil((freesAt - tx.now) / 1000))),
    });
  // The oldest offer that still counts leaves its window at freesAt; then one more is allowed.
  if (times.length >= DEALS_LIMITS.offersPerDay) {
    throw refuse(DEALS_MESSAGES.offerDailyLimit, times[DEALS_LIMITS.offersPerDay - 1]! + DAY_MS);
  }
  const lastMinute = times.filter((at) => at > tx.now - MINUTE_MS);
  if (lastMinute.length >= DEALS_LIMITS.offersPerMinute) {
    throw refuse(DEALS_MESSAGES.offerTooFast, lastMinute[DEALS_LIMITS.offersPerMinute - 1]! + MINUTE_MS);
  }
}

/**
 * An offer that opens the conversation takes a slot of the buyer's daily cap of new conversations,
 * as a first chat message does (safety), inside the offer's transaction: a refusal rolls the offer
 * back, and a failed offer gives the slot back.
 */
export async function takeConversationSlot(
  ctx: AppContext,
  tx: DealsTx,
  roomId: string,
  buyerId: number,
): Promise<void> {
  const earlier = await tx.roomMessageCount(roomId);
  if (!earlier) await takeDaily(ctx, buyerId, 'conversation', tx.db);
}
