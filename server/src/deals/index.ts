import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { AppContext } from '../context.js';
import { HandoffService } from './handoff.js';
import { MeetupsService } from './meetups.js';
import { OffersService } from './offers.js';
import { ListingRemoval } from './removal.js';
import { dealsRoutes } from './routes.js';
import { SoldToggle } from './sold.js';
import { attachCards } from './store.js';
import type { DealsDeps } from './tx.js';

export interface DealsModule {
  offers: OffersService;
  meetups: MeetupsService;
  handoff: HandoffService;
  /** A moderator removed a listing: its deals end in the removal's transaction (safety calls it). */
  removal: ListingRemoval;
  /** The sold toggle under the listing's lock (the listings service is given it at construction). */
  sold: SoldToggle;
}

/**
 * Deals (features.md §A): offers, reservations, meet-ups, hand-off. Changes are posted into the
 * pair's chat as cards and system messages and delivered live through the chat broker.
 */
export async function registerDeals(
  app: FastifyInstance,
  ctx: AppContext,
  chat: ChatModule,
): Promise<DealsModule> {
  const deps: DealsDeps = {
    publish: (event) => chat.broker.publish(event),
    // Read after the deals transaction committed: the index and hot cache follow.
    listingWritten: (row) => ctx.domainEvents.announceCommitted('listing.changed', { row }),
  };
  const offers = new OffersService(ctx, deps);
  offers.registerJobs();
  const meetups = new MeetupsService(ctx, deps, offers);
  const handoff = new HandoffService(ctx, deps);
  const sold = new SoldToggle(ctx, deps, offers);
  chat.service.setCardLoader((messages, rows) => attachCards(ctx.db.kysely, messages, rows));
  await app.register(dealsRoutes(ctx, offers, meetups, handoff));
  return { offers, meetups, handoff, removal: new ListingRemoval(ctx, deps), sold };
}
