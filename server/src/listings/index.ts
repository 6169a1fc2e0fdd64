import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerMediaRoutes } from '../media/index.js';
import { HotCache } from './hot-cache.js';
import { listingsRoutes } from './routes.js';
import { LiveSearchIndex } from './search/live-index.js';
import { ListingsService } from './service.js';

export { ListingsService } from './service.js';
export { toListing } from './store.js';

/** Listings module entry: listing routes, the search index, and GET /uploads for stored photos. */
export async function registerListings(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const search = new LiveSearchIndex(ctx.db);
  const cache = new HotCache();
  const service = new ListingsService(ctx, search, () => cache.listingsChanged());
  await registerMediaRoutes(app, ctx);
  await app.register(listingsRoutes(ctx, service, cache));
  if (ctx.config.nodeEnv !== 'test') {
    // Build the search index while the server starts, so the first search does not wait for it.
    app.addHook('onReady', async () => {
      search.warm().catch((err: unknown) => ctx.logger.error({ err }, 'building the search index failed'));
    });
  }
}
