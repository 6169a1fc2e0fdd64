import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { ListingsModule } from '../listings/index.js';
import { enqueueMatch, registerMatchJob } from './matching.js';
import { sellingRoutes } from './routes.js';
import { SellingService } from './service.js';

/**
 * Selling and finding (features.md §B): favourites, saved searches, wanted posts, and matching of
 * new and edited listings against them. Edit, photos, condition, sorting and textbook fields live
 * in listings/ (they change the listing itself).
 */
export async function registerSelling(
  app: FastifyInstance,
  ctx: AppContext,
  listings: ListingsModule,
): Promise<void> {
  const service = new SellingService(ctx, listings);
  registerMatchJob(ctx);
  // In the listing's own transaction: the job exists exactly when the create or edit commits.
  ctx.domainEvents.inTransaction('listing.written', (trx, { row }) => enqueueMatch(ctx, trx, row));
  await app.register(sellingRoutes(ctx, service, listings));
}
