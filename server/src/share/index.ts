import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { shareRoutes } from './routes.js';

// What other modules use of sharing (the web module puts the tags in listing pages).
export { sharedListing, type SharedListing } from './preview.js';
export { genericMeta, listingIdOfPage, listingMeta, withPageMeta, type PageMeta } from './meta.js';

/** Sharing: the public preview of a listing (the page tags are added by the web module). */
export async function registerShare(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(shareRoutes(ctx));
}
