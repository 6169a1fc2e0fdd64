import { SAFETY_MESSAGES } from '@campus/contract';
import type { AppContext } from '../context.js';
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
