import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { ListingsModule } from '../listings/index.js';
import { movingOutRoutes } from './routes.js';
import { MovingOutService } from './service.js';

export { JOB_DEADLINE, JOB_PRICE_STEP } from './service.js';

/**
 * Moving out (features.md §H): `PUT/GET/DELETE /users/me/move-out`, the campus feed
 * `GET /listings/moving-out`, and the plan's timers. It writes `move_out_plans` and
 * `move_out_prices`; listing prices and unlisting go through listings' `season` writes.
 */
export async function registerMovingOut(
  app: FastifyInstance,
  ctx: AppContext,
  listings: ListingsModule,
): Promise<MovingOutService> {
  const service = new MovingOutService(ctx, {
    season: listings.season,
    hiddenSellers: (userId) => listings.service.hiddenSellersFor(userId),
  });
  service.registerJobs();
  await app.register(movingOutRoutes(ctx, service, listings));
  return service;
}
