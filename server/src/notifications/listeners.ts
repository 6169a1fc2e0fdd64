import { CLAIM_EVENTS, SAFETY_MESSAGES, pickupTime } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { announceDealConfirmed, announceReviewsRevealed } from './deal-notices.js';
import {
  announcePriceDrop,
  notifyListingExpiring,
  notifySavedSearchMatch,
  notifyWantedMatch,
} from './producers.js';
import { notify } from './service.js';

/**
 * The facts other modules announce that a student hears about. Every notice is written in the
 * announcing transaction, so it exists exactly when the fact commits (and its e-mail and push
 * jobs with it): a price drop and a saved-search match alike.
 */
export function listenToFacts(ctx: AppContext): void {
  const events = ctx.domainEvents;
  events.inTransaction('listing.priceDropped', (trx, { row, oldCents }) =>
    announcePriceDrop(ctx, trx, row, oldCents),
  );
  events.inTransaction('savedSearch.matched', (trx, { userId, listing, query }) =>
    notifySavedSearchMatch(ctx, trx, userId, listing, query),
  );
  events.inTransaction('wanted.matched', (trx, { userId, listing, wantedTitle }) =>
    notifyWantedMatch(ctx, trx, userId, listing, wantedTitle),
  );
  events.inTransaction('deal.confirmed', (trx, { deal }) => announceDealConfirmed(ctx, trx, deal));
  events.inTransaction('reviews.revealed', (trx, { dealId, subjectIds }) =>
    announceReviewsRevealed(ctx, trx, dealId, subjectIds),
  );
  events.inTransaction('listing.expiring', (trx, { row, daysLeft }) =>
    notifyListingExpiring(ctx, trx, row, daysLeft),
  );
  // Free items (features.md §H): the giver at the window's end, each claimant at the decision.
  events.inTransaction('claims.ready', (trx, { giverId, listingId, listingName, count }) =>
    notify(ctx, trx, {
      userId: giverId,
      type: 'CLAIMS_READY',
      title: CLAIM_EVENTS.readyTitle(listingName),
      body: CLAIM_EVENTS.readyBody(count),
      link: `/single_listing/${listingId}`,
      subjectId: listingId,
      dedupeKey: `claims-ready:${listingId}`,
    }).then(() => undefined),
  );
  events.inTransaction('claims.won', (trx, { claimantId, listingId, listingName, roomId, pickupBy }) =>
    notify(ctx, trx, {
      userId: claimantId,
      type: 'CLAIM_WON',
      title: CLAIM_EVENTS.wonTitle(listingName),
      body: CLAIM_EVENTS.wonBody(pickupTime(pickupBy, ctx.campuses.byId(requireCampusId()).timeZone)),
      link: `/chat/${roomId}`,
      subjectId: listingId,
    }).then(() => undefined),
  );
  events.inTransaction('claims.lost', (trx, { claimantId, listingId, listingName, othersNearby }) =>
    notify(ctx, trx, {
      userId: claimantId,
      type: 'CLAIM_LOST',
      title: CLAIM_EVENTS.lostTitle(listingName),
      body: CLAIM_EVENTS.lostBody(othersNearby),
      link: '/all_listings?free=true',
      subjectId: listingId,
      dedupeKey: `claim-lost:${listingId}:${claimantId}`,
    }).then(() => undefined),
  );
  // The centre, live, push and e-mail (with its one-click unsubscribe), like every notice.
  events.inTransaction(
    'moderation.listingRemoved',
    async (trx, { sellerId, listingId, listingName, reason }) => {
      await notify(ctx, trx, {
        userId: sellerId,
        type: 'LISTING_REMOVED',
        title: SAFETY_MESSAGES.listingRemovedTitle(listingName),
        body: SAFETY_MESSAGES.listingRemovedBody(reason),
        link: '/personalListings',
        subjectId: listingId,
      });
    },
  );
}
