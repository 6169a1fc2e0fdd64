import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { ListingsModule } from '../listings/index.js';
import { trustRoutes } from './routes.js';
import { REVEAL_JOB, TrustService, type RevealPayload } from './service.js';

export { REVEAL_JOB } from './service.js';

/**
 * Trust (features.md §A): blind two-way reviews of confirmed deals, the caller's deals with their
 * review state, public profiles (rating, reliability, median reply time, bio, avatar). Deals
 * themselves (and no-shows) are recorded by the deals module; this one only reads them.
 */
export async function registerTrust(
  app: FastifyInstance,
  ctx: AppContext,
  listings: ListingsModule,
): Promise<TrustService> {
  const service = new TrustService(ctx, listings);
  ctx.jobs.register<RevealPayload>(REVEAL_JOB, (payload) => service.revealDue(payload.dealId));
  await app.register(trustRoutes(ctx, service));
  return service;
}
