import { CLAIMS_DURATIONS_MS } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Trx } from '../events.js';
import { findListingRow } from '../listings/index.js';
import type { Giveaways } from './giveaways.js';
import { JOB_AUTO_DRAW, JOB_WINDOW_END, windowEndOf } from './service.js';
import * as store from './store.js';

/**
 * The giveaway's timers and the facts it follows. Each job is keyed per listing and re-checks the
 * state when it runs, so a late, repeated or concurrent run (N processes) changes nothing twice:
 * the notice has a dedupe key, and the decision is one row per listing.
 */
export function registerClaimTimers(ctx: AppContext, giveaways: Giveaways): void {
  const inTx = async (work: (trx: Trx) => Promise<void>) => {
    await ctx.domainEvents.transaction(work);
    ctx.jobs.kick();
  };

  // The window closed: the giver hears how many want the item (once).
  ctx.jobs.register<{ listingId: number }>(JOB_WINDOW_END, ({ listingId }) =>
    inTx(async (trx) => {
      const listing = await findListingRow(trx, requireCampusId(), listingId);
      if (!listing || listing.status !== 'AVAILABLE' || (await store.decisionOf(trx, listingId))) return;
      const open = await store.claimsOfListing(trx, listingId, ['OPEN']);
      if (open.length === 0) return;
      await ctx.domainEvents.announce(trx, 'claims.ready', {
        giverId: listing.seller_id,
        listingId,
        listingName: listing.name,
        count: open.length,
      });
    }),
  );

  // 24 h after the window without a choice, the app draws.
  ctx.jobs.register<{ listingId: number }>(JOB_AUTO_DRAW, ({ listingId }) =>
    inTx(async (trx) => {
      const listing = await findListingRow(trx, requireCampusId(), listingId);
      if (!listing) return;
      if (await store.decisionOf(trx, listingId)) return;
      const open = await store.claimsOfListing(trx, listingId, ['OPEN']);
      // Given away elsewhere, or removed: nobody will get it from these claims.
      if (listing.status !== 'AVAILABLE' || listing.moderation === 'REMOVED' || listing.price_cents !== 0) {
        for (const claim of open) await giveaways.lose(trx, listing, claim);
        return;
      }
      if (ctx.clock() < windowEndOf(listing) + CLAIMS_DURATIONS_MS.autoDrawAfter) return;
      if (open.length === 0) return;
      await giveaways.decide(trx, listing, open, 'AUTO_DRAWN', null);
    }),
  );

  // A pickup ended without a hand-off (deals): the next in line gets the item.
  ctx.domainEvents.inTransaction('deal.pickupEnded', async (trx, { listingId, claimId, reason }) => {
    const listing = await findListingRow(trx, requireCampusId(), listingId);
    if (!listing) return;
    await giveaways.passOn(trx, listing, claimId, reason);
  });

  // The hand-off code confirmed the deal at price 0: the giveaway is done.
  ctx.domainEvents.inTransaction('deal.confirmed', async (trx, { deal }) => {
    if (deal.price !== 0) return;
    const listing = await findListingRow(trx, requireCampusId(), deal.listingId);
    if (!listing) return;
    await giveaways.finish(trx, listing, deal.buyerId);
  });
}
