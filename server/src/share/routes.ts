import { listingPreviewResponse, MESSAGES } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import { idParams, pathId } from '../http/params.js';
import { sharedListing } from './preview.js';

export function shareRoutes(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get(
      '/public/listings/:id/preview',
      doc({
        tag: 'listings',
        summary:
          'What a shared link shows without a session: name, price, condition, cover photo, campus (never the seller)',
        params: idParams,
        response: listingPreviewResponse,
        errors: [400, 404],
      }),
      async (request, reply) => {
        const id = pathId(request, MESSAGES.listingIdInvalid);
        const shared = await sharedListing(ctx, request.hostname, id);
        // Unknown, another site's campus, removed or previews off: all the same 404.
        if (!shared) throw notFound(MESSAGES.listingNotFound);
        // Anyone may read it; a minute of caching spares the database a burst of preview bots.
        return reply.header('cache-control', 'public, max-age=60').send(shared.preview);
      },
    );
  };
}
