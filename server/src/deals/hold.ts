import {
  CLAIMS_DURATIONS_MS,
  DEALS_DURATIONS_MS,
  HOLD_DURATIONS_MS,
  HOLD_LIMITS,
  HOLD_MESSAGES,
  dayOf,
  dayStartMs,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { badRequest } from '../http/errors.js';
import * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps } from './tx.js';

/**
 * Hold for fall (features.md §H): an offer may carry `holdUntil`, a calendar day of the campus
 * (00:00 campus time is when it "is"). Once accepted, the reservation lasts until 48 h after that
 * day instead of 72 h after acceptance, both students are reminded 7 days and 1 day before, and
 * meet-ups about it can be proposed from 7 days before. A counter-offer keeps the hold unless it
 * names one of its own (docs/decisions.md, "Hold for fall").
 */

export const JOB_HOLD_REMINDER = 'deals.hold-reminder';
const DAY_MS = 24 * 3_600_000;

function timeZone(ctx: AppContext): string {
  return ctx.campuses.byId(requireCampusId()).timeZone;
}

/** 00:00 of the hold day on the work's campus. */
export function holdStartMs(ctx: AppContext, day: string): number {
  return dayStartMs(day, timeZone(ctx));
}

/** A hold day from a request: null when none; 400 unless it is in the future and ≤ 120 days ahead. */
export function checkHoldDay(ctx: AppContext, now: number, day: string | null | undefined): string | null {
  if (day === undefined || day === null) return null;
  const start = holdStartMs(ctx, day);
  if (start <= now) throw badRequest(HOLD_MESSAGES.holdNotFuture);
  if (start > now + HOLD_LIMITS.maxDaysAhead * DAY_MS) throw badRequest(HOLD_MESSAGES.holdTooFar);
  return day;
}

/** When an accepted offer's reservation lapses without a confirmed meet-up. */
export function reservationBaseDeadline(ctx: AppContext, offer: store.OfferRow): number {
  if (offer.hold_until) return holdStartMs(ctx, offer.hold_until) + HOLD_DURATIONS_MS.reservationAfterHold;
  // A free item's pickup is 48 h, not the 72 h of a sale (features.md §H).
  const lapse = offer.claim_id === null ? DEALS_DURATIONS_MS.reservationLapse : CLAIMS_DURATIONS_MS.pickup;
  return Number(offer.accepted_at ?? offer.created_at) + lapse;
}

/**
 * Meet-ups about a held item can be proposed from 7 days before the hold day: the item is not
 * changing hands before then. Applies in the reserved buyer's room only (others have no deal).
 */
export async function assertMeetupWindow(
  ctx: AppContext,
  tx: DealsTx,
  listing: store.DealListing,
  roomId: string,
): Promise<void> {
  if (listing.status !== 'RESERVED' || listing.accepted_offer_id === null) return;
  const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
  if (!offer || !offer.hold_until || offer.room_id !== roomId) return;
  const from = holdStartMs(ctx, offer.hold_until) - HOLD_DURATIONS_MS.meetupsFrom;
  if (tx.now < from) {
    throw badRequest(HOLD_MESSAGES.meetupTooEarly(offer.hold_until, dayOf(from, timeZone(ctx))));
  }
}

const reminderKey = (offerId: number, daysBefore: number) => `${JOB_HOLD_REMINDER}:${offerId}:${daysBefore}`;

/** Durable reminders for an accepted held offer: those still ahead (a near hold skips the 7-day one). */
export async function scheduleHoldReminders(
  ctx: AppContext,
  tx: DealsTx,
  offer: store.OfferRow,
): Promise<void> {
  if (!offer.hold_until) return;
  const start = holdStartMs(ctx, offer.hold_until);
  for (const daysBefore of HOLD_LIMITS.reminderDaysBefore) {
    const runAt = start - daysBefore * DAY_MS;
    if (runAt <= tx.now) continue;
    await ctx.jobs.enqueue(
      tx.db,
      JOB_HOLD_REMINDER,
      { offerId: offer.id, day: offer.hold_until, daysBefore },
      { runAt, key: reminderKey(offer.id, daysBefore) },
    );
  }
}

/**
 * The reminder job: re-checks that the held reservation is still on (the offer ACCEPTED, the
 * listing RESERVED by it, the same hold day) and posts a system line to the pair's room that
 * tells both students (HOLD_REMINDER, through the notifications module's deal notices).
 */
export function registerHoldJobs(ctx: AppContext, deps: DealsDeps): void {
  ctx.jobs.register<{ offerId: number; day: string; daysBefore: number }>(JOB_HOLD_REMINDER, (p) =>
    inDealsTx(ctx, deps, async (tx) => {
      const offer = await store.findOffer(tx.db, p.offerId);
      if (!offer || offer.status !== 'ACCEPTED' || offer.hold_until !== p.day) return;
      const listing = await store.lockListing(tx.db, offer.listing_id, tx.postgres);
      if (!listing || listing.status !== 'RESERVED' || listing.accepted_offer_id !== offer.id) return;
      await tx.post(
        DealsTx.topic(listing.id, listing.seller_id, offer.buyer_id),
        { senderId: 0, kind: 'system', content: HOLD_MESSAGES.reminder(listing.name, p.day, p.daysBefore) },
        { offer },
        'HOLD_REMINDER',
      );
    }),
  );
}
