import {
  MOVE_OUT_MESSAGES,
  isDbId,
  listingResponse,
  moveOutBodySchema,
  moveOutPlanResponse,
  pageQueryDoc,
} from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import {
  LINK_HEADER_DOC as LINK,
  encodeCursor,
  nextLink,
  parsePage,
  queryValue,
  type RawQuery,
} from '../http/paging.js';
import { RenderedListings, type ListingsModule } from '../listings/index.js';
import type { MovingOutService } from './service.js';

const MINUTE_MS = 60_000;

export function movingOutRoutes(ctx: AppContext, service: MovingOutService, listings: ListingsModule) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    app.get(
      '/users/me/move-out',
      doc({
        tag: 'moving-out',
        auth: true,
        summary: "The caller's move-out plan (204 when none is set)",
        response: moveOutPlanResponse,
        errors: [],
      }),
      async (request, reply) => {
        const plan = await service.get(principalOf(request));
        return plan ?? reply.code(204).send();
      },
    );

    app.put(
      '/users/me/move-out',
      doc({
        tag: 'moving-out',
        auth: true,
        summary: 'Set or replace the caller’s move-out plan',
        description:
          '`date` (YYYY-MM-DD, campus time) in the future and at most 120 days ahead; `autoDrop` lowers the prices of the caller’s available listings 20 % seven days and 40 % two days before, never below `floorPercent` (1–100, default 50) of the price before the first step; at the date what is still available turns free (`thenFree`) or leaves browse.',
        body: moveOutBodySchema,
        response: moveOutPlanResponse,
        errors: [400],
      }),
      async (request) => service.put(principalOf(request), request.body),
    );

    app.delete(
      '/users/me/move-out',
      doc({
        tag: 'moving-out',
        auth: true,
        summary: 'Clear the caller’s move-out plan (prices already lowered stay)',
        errors: [],
        status: 204,
      }),
      async (request, reply) => {
        await service.clear(principalOf(request));
        return reply.code(204).send();
      },
    );

    app.get(
      '/listings/held',
      doc({
        tag: 'moving-out',
        auth: true,
        summary:
          'Listings held for the fall that the caller sells or holds (RESERVED by an offer with holdUntil), soonest day first',
        response: z.array(listingResponse),
        errors: [],
      }),
      async (request, reply) => {
        const held = await service.held(principalOf(request));
        const body = await listings.personaliser.body(new RenderedListings(held, true), principalOf(request));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );

    app.get(
      '/listings/moving-out',
      doc({
        tag: 'moving-out',
        auth: true,
        summary:
          "Listings of the caller's campus whose sellers are moving out, soonest deadline first (sellerId: one student's shelf)",
        query: pageQueryDoc.extend({ sellerId: z.number().int().optional() }),
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const raw = request.query as RawQuery;
        // The "price" keyset carries the deadline in minutes (a whole minute: 00:00 campus time).
        const page = parsePage(raw, 'price');
        const sellerText = queryValue(raw, 'sellerId');
        const sellerId = sellerText === undefined ? undefined : Number(sellerText);
        if (sellerId !== undefined && (!/^\d+$/.test(sellerText!) || !isDbId(sellerId))) {
          throw badRequest(MOVE_OUT_MESSAGES.sellerInvalid);
        }
        const after =
          page.cursor?.kind === 'price'
            ? { deadlineAt: page.cursor.price * MINUTE_MS, id: page.cursor.id }
            : undefined;
        const result = await service.feed(principalOf(request), { limit: page.limit, after, sellerId });
        if (result.next) {
          const cursor = encodeCursor({
            kind: 'price',
            price: Math.floor(result.next.deadlineAt / MINUTE_MS),
            id: result.next.id,
          });
          reply.header('link', nextLink(request.url, cursor));
        }
        const body = await listings.personaliser.body(
          new RenderedListings(result.listings, true),
          principalOf(request),
        );
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
