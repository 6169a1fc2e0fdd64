import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { DealsModule } from '../deals/index.js';
import { cryptoRandom, type RandomSource } from './draw.js';
import { Giveaways } from './giveaways.js';
import { claimsRoutes } from './routes.js';
import { ClaimsService } from './service.js';
import { registerClaimTimers } from './timers.js';

export type { RandomSource } from './draw.js';
export { JOB_AUTO_DRAW, JOB_WINDOW_END } from './service.js';

export interface ClaimsOptions {
  /** The draw's randomness; the CSPRNG unless a test injects a deterministic source. */
  random?: RandomSource;
}

/**
 * Claims on free items (features.md §H). The only writer of `claims` and `claim_draws`; a win's
 * pickup is a reservation made by deals (`pickups`), whose end comes back as `deal.pickupEnded`.
 */
export async function registerClaims(
  app: FastifyInstance,
  ctx: AppContext,
  deals: Pick<DealsModule, 'pickups'>,
  options: ClaimsOptions = {},
): Promise<ClaimsService> {
  const giveaways = new Giveaways(ctx, deals.pickups, options.random ?? cryptoRandom);
  registerClaimTimers(ctx, giveaways);
  const service = new ClaimsService(ctx, giveaways, deals.pickups);
  await app.register(claimsRoutes(ctx, service));
  return service;
}
