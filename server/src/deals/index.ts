import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { AppContext } from '../context.js';
import { BundlesService } from './bundles.js';
import { HandoffService } from './handoff.js';
import { registerHoldJobs } from './hold.js';
import { MeetupsService } from './meetups.js';
import { OffersService } from './offers.js';
import { PickupService } from './pickups.js';
import { registerPriceGuide } from './price-guide.js';
import { ListingRemoval } from './removal.js';
import { dealsRoutes } from './routes.js';
import { SoldToggle } from './sold.js';
import { followListingChanges, type DealsDeps } from './tx.js';

export { dealItemsOf } from './bundle-store.js';
export { dealCardKinds } from './cards.js';
export type { DealMessageCard, PickupEndReason } from './tx.js';
export type { Pickup, PickupService } from './pickups.js';

export interface DealsModule {
  offers: OffersService;
  meetups: MeetupsService;
  handoff: HandoffService;
  /** A moderator removed a listing: its deals end in the removal's transaction (safety calls it). */
  removal: ListingRemoval;
  /** The sold toggle under the listing's lock (the listings service is given it at construction). */
  sold: SoldToggle;
  /** A free item's pickup: a reservation at price 0 that claims starts and passes on (features.md §H). */
  pickups: PickupService;
}

/**
 * Deals (features.md §A): offers, reservations, meet-ups, hand-off. Changes are posted into the
 * pair's chat as cards and system messages (chat's `posts`, in the change's own transaction) and
 * delivered live once it commits.
 */
export async function registerDeals(
  app: FastifyInstance,
  ctx: AppContext,
  chat: Pick<ChatModule, 'posts'>,
): Promise<DealsModule> {
  const deps: DealsDeps = {
    chat: chat.posts,
    // Read after the deals transaction committed: the index and hot cache follow.
    listingWritten: (row) => ctx.domainEvents.announceCommitted('listing.changed', { row }),
  };
  followListingChanges(ctx, deps);
  const offers = new OffersService(ctx, deps);
  offers.registerJobs();
  registerHoldJobs(ctx, deps);
  const meetups = new MeetupsService(ctx, deps, offers);
  const handoff = new HandoffService(ctx, deps);
  const sold = new SoldToggle(ctx, deps, offers);
  const bundles = new BundlesService(ctx, deps, offers);
  await app.register(dealsRoutes(ctx, offers, bundles, meetups, handoff));
  await registerPriceGuide(app, ctx);
  const pickups = new PickupService(ctx, deps, offers);
  return { offers, meetups, handoff, removal: new ListingRemoval(ctx, deps), sold, pickups };
}
