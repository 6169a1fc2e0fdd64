import {
  CLAIMS_MESSAGES,
  DEALS_MESSAGES,
  claimBodySchema,
  claimDrawResponse,
  claimResponse,
  pageQueryDoc,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC, encodeCursor, nextLink, parsePage, type RawQuery } from '../http/paging.js';
import { idParams, pathId } from '../http/params.js';
import type { ClaimsService } from './service.js';

const tag = 'claims';

export function claimsRoutes(ctx: AppContext, claims: ClaimsService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));
    const listingId = (r: FastifyRequest) => pathId(r, DEALS_MESSAGES.listingIdInvalid);
    const claimId = (r: FastifyRequest) => pathId(r, CLAIMS_MESSAGES.claimIdInvalid);
    const me = (r: FastifyRequest) => principalOf(r).userId;

    app.post(
      '/listings/:id/claims',
      doc({
        tag,
        auth: true,
        summary: 'Claim a free item during its claim window (not the giver; one claim per student)',
        description:
          '409: not free, not available, window closed, already claimed, 3 open claims, or 5 items won in 7 days. 403: your own item.',
        params: idParams,
        body: claimBodySchema,
        status: 201,
        response: claimResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await claims.claim(me(request), listingId(request), request.body)),
    );
    app.delete(
      '/listings/:id/claims/mine',
      doc({
        tag,
        auth: true,
        summary: 'Withdraw your claim (a won pickup passes to the next in line)',
        params: idParams,
        response: claimResponse,
        errors: [400, 404, 409],
      }),
      async (request) => claims.withdraw(me(request), listingId(request)),
    );
    app.get(
      '/listings/:id/claims',
      doc({
        tag,
        auth: true,
        summary: "A free item's claims, newest first: all for the giver, your own for anyone else",
        params: idParams,
        query: pageQueryDoc,
        response: z.array(claimResponse),
        headers: LINK_HEADER_DOC,
        errors: [400, 404],
      }),
      async (request, reply) => {
        const page = parsePage(request.query as RawQuery, 'browse');
        const beforeId = page.cursor?.kind === 'browse' ? page.cursor.id : undefined;
        const result = await claims.list(me(request), listingId(request), page.limit, beforeId);
        if (result.next !== undefined) {
          reply.header('link', nextLink(request.url, encodeCursor({ kind: 'browse', id: result.next })));
        }
        return result.claims;
      },
    );
    app.post(
      '/claims/:id/choose',
      doc({
        tag,
        auth: true,
        summary: 'The giver chooses a claim after the window; the other claims are drawn behind it',
        params: idParams,
        response: claimResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => claims.choose(me(request), claimId(request)),
    );
    app.post(
      '/listings/:id/claims/draw',
      doc({
        tag,
        auth: true,
        summary: 'The giver draws a winner among the open claims after the window (uniform, recorded)',
        params: idParams,
        response: claimDrawResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => claims.draw(me(request), listingId(request)),
    );
    app.get(
      '/listings/:id/claims/draw',
      doc({
        tag,
        auth: true,
        summary: "The giveaway's recorded decision (giver and claimants): method, pool, order, skips, time",
        params: idParams,
        response: claimDrawResponse,
        errors: [400, 403, 404],
      }),
      async (request) => claims.decision(me(request), listingId(request)),
    );
  };
}
