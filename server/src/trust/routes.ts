import {
  TRUST_MESSAGES,
  dealWithReviewsResponse,
  pageQueryDoc,
  profilePatchDoc,
  profileResponse,
  reviewDoc,
  reviewResponse,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC as LINK, encodeCursor, nextLink, parsePage, type RawQuery } from '../http/paging.js';
import { idParams, pathId } from '../http/params.js';
import { withUploadSlot, uploadRoutes } from '../http/uploads.js';
import { readPhotoForm } from '../listings/index.js';
import { discardIncoming } from '../media/index.js';
import type { TrustService } from './service.js';

export function trustRoutes(ctx: AppContext, service: TrustService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    /** Keyset pages by id, newest first, with the usual opaque cursor in a Link header. */
    const page = (request: FastifyRequest) => {
      const p = parsePage(request.query as RawQuery, 'browse');
      return { limit: p.limit, beforeId: p.cursor?.kind === 'browse' ? p.cursor.id : undefined };
    };
    const link = (request: FastifyRequest, nextBeforeId: number | undefined) =>
      nextBeforeId === undefined
        ? undefined
        : nextLink(request.url, encodeCursor({ kind: 'browse', id: nextBeforeId }));

    app.get(
      '/users/:id/profile',
      doc({
        tag: 'trust',
        auth: true,
        summary:
          "A student's public profile: rating, deals, reliability, reply time, listings (never an e-mail)",
        params: idParams,
        response: profileResponse,
        errors: [400, 404],
      }),
      async (request) => service.profile(principalOf(request), pathId(request, TRUST_MESSAGES.userIdInvalid)),
    );

    app.get(
      '/users/:id/reviews',
      doc({
        tag: 'trust',
        auth: true,
        summary: 'Revealed reviews of a student, newest first (blind ones never appear)',
        params: idParams,
        query: pageQueryDoc,
        response: z.array(reviewResponse),
        headers: LINK,
        errors: [400, 404],
      }),
      async (request, reply) => {
        const id = pathId(request, TRUST_MESSAGES.userIdInvalid);
        const { limit, beforeId } = page(request);
        const result = await service.reviewsOf(principalOf(request), id, limit, beforeId);
        const next = link(request, result.nextBeforeId);
        if (next) reply.header('link', next);
        return result.items;
      },
    );

    app.patch(
      '/users/me',
      doc({
        tag: 'trust',
        auth: true,
        summary: "Change the caller's bio (≤ 280 characters; empty clears it); answers the profile",
        body: profilePatchDoc,
        response: profileResponse,
        errors: [400],
      }),
      async (request) => service.updateMe(principalOf(request), request.body),
    );

    await uploadRoutes(app, (uploads) =>
      uploads.post(
        '/users/me/avatar',
        doc({
          tag: 'trust',
          auth: true,
          summary:
            "Set the caller's avatar (multipart, one JPEG `image`, the photo rules); answers the profile",
          multipart: { files: ['image'] },
          response: profileResponse,
          errors: [400, 413, 429, 503],
        }),
        async (request) => {
          const principal = principalOf(request);
          await ctx.limits.consume('upload:account', String(principal.userId));
          return withUploadSlot(ctx, principal.userId, async () => {
            const image = await readPhotoForm(request, ctx.config.dataDir);
            try {
              return await service.setAvatar(principal, image);
            } finally {
              await discardIncoming([image]);
            }
          });
        },
      ),
    );

    app.get(
      '/deals',
      doc({
        tag: 'trust',
        auth: true,
        summary: "The caller's deals, newest first, with myReview, the revealed other review and canReview",
        query: pageQueryDoc,
        response: z.array(dealWithReviewsResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const { limit, beforeId } = page(request);
        const result = await service.deals(principalOf(request), limit, beforeId);
        const next = link(request, result.nextBeforeId);
        if (next) reply.header('link', next);
        return result.items;
      },
    );

    app.post(
      '/deals/:id/review',
      doc({
        tag: 'trust',
        auth: true,
        summary:
          'Review the other party of a confirmed deal: once, within 14 days; blind until both reviewed or the 14 days passed',
        params: idParams,
        body: reviewDoc,
        status: 201,
        response: dealWithReviewsResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request, reply) => {
        const id = pathId(request, TRUST_MESSAGES.dealIdInvalid);
        return reply.code(201).send(await service.review(principalOf(request), id, request.body));
      },
    );
  };
}
