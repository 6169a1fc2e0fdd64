import {
  bundleBodySchema,
  DEALS_MESSAGES,
  handoffBodySchema,
  handoffCodeResponse,
  handoffResultResponse,
  meetupBodySchema,
  makeOfferBodySchema,
  meetupResponse,
  offerBodySchema,
  offerResponse,
  pageQueryDoc,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC, encodeCursor, nextLink, parsePage, type RawQuery } from '../http/paging.js';
import { idParams, pathId } from '../http/params.js';
import type { BundlesService } from './bundles.js';
import type { HandoffService } from './handoff.js';
import type { MeetupsService } from './meetups.js';
import type { OffersService } from './offers.js';

const tag = 'deals';

export function dealsRoutes(
  ctx: AppContext,
  offers: OffersService,
  bundles: BundlesService,
  meetups: MeetupsService,
  handoff: HandoffService,
) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));
    const listingId = (r: FastifyRequest) => pathId(r, DEALS_MESSAGES.listingIdInvalid);
    const offerId = (r: FastifyRequest) => pathId(r, DEALS_MESSAGES.offerIdInvalid);
    const meetupId = (r: FastifyRequest) => pathId(r, DEALS_MESSAGES.meetupIdInvalid);

    // ---- offers
    app.post(
      '/listings/:id/offers',
      doc({
        tag,
        auth: true,
        summary:
          'Make an offer (a buyer, or the seller in a chat; the listing AVAILABLE); supersedes the PENDING one',
        description:
          "A buyer: opens the chat room with the seller if needed and posts an `offer` card there. The seller names a chat (`roomId`) and offers the listing to its other student, who may accept (reserving it for them), decline or counter. 403: your own listing without `roomId`, a chat that is not the seller's or does not exist, a block. 409: reserved or sold.",
        params: idParams,
        body: makeOfferBodySchema,
        status: 201,
        response: offerResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request, reply) =>
        reply
          .code(201)
          .send(await offers.make(principalOf(request).userId, listingId(request), request.body)),
    );
    app.post(
      '/bundles',
      doc({
        tag,
        auth: true,
        summary: 'Make a bundle offer: one amount for 2–10 AVAILABLE listings of one seller (a buyer)',
        description:
          'Posts an `offer` card with `listingIds` and `items` in the chat with the seller; answered like any offer (accept reserves every listing). Supersedes your PENDING bundle with this seller. 400: fewer than 2 or more than 10, duplicates, several sellers. 403: your own listings. 404: a listing does not exist. 409: a listing is reserved or sold.',
        body: bundleBodySchema,
        status: 201,
        response: offerResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await bundles.make(principalOf(request).userId, request.body)),
    );
    app.get(
      '/listings/:id/offers',
      doc({
        tag,
        auth: true,
        summary: "A listing's offers, newest first: all for the seller, your own for anyone else",
        params: idParams,
        query: pageQueryDoc,
        response: z.array(offerResponse),
        headers: LINK_HEADER_DOC,
        errors: [400, 404],
      }),
      async (request, reply) => {
        const id = listingId(request);
        const page = parsePage(request.query as RawQuery, 'browse');
        const beforeId = page.cursor?.kind === 'browse' ? page.cursor.id : undefined;
        const result = await offers.list(principalOf(request).userId, id, page.limit, beforeId);
        if (result.next !== undefined) {
          reply.header('link', nextLink(request.url, encodeCursor({ kind: 'browse', id: result.next })));
        }
        return result.offers;
      },
    );
    const answer = (
      path: string,
      summary: string,
      run: (userId: number, id: number, body: unknown) => Promise<unknown>,
      extra: { body?: z.ZodType; status?: number } = {},
    ) =>
      app.post(
        path,
        doc({
          tag,
          auth: true,
          summary,
          params: idParams,
          ...(extra.body ? { body: extra.body } : {}),
          status: extra.status,
          response: offerResponse,
          errors: [400, 403, 404, 409],
        }),
        async (request, reply) =>
          reply
            .code(extra.status ?? 200)
            .send(await run(principalOf(request).userId, offerId(request), request.body)),
      );
    answer(
      '/offers/:id/accept',
      'Accept an offer (the side that did not make it): reserves the listing (every listing of a bundle) for the buyer',
      (u, id) => bundles.accept(u, id),
    );
    answer('/offers/:id/decline', 'Decline an offer (the side that did not make it)', (u, id) =>
      offers.decline(u, id),
    );
    answer(
      '/offers/:id/counter',
      'Counter an offer (the side that did not make it): the old one becomes COUNTERED, the answer is the new PENDING offer',
      (u, id, body) => bundles.counter(u, id, body),
      { body: offerBodySchema, status: 201 },
    );
    answer('/offers/:id/withdraw', 'Withdraw your PENDING offer', (u, id) => offers.withdraw(u, id));
    app.post(
      '/listings/:id/release',
      doc({
        tag,
        auth: true,
        summary: 'Release a reservation (the seller): the accepted offer is CANCELLED, the listing AVAILABLE',
        params: idParams,
        response: z.object({ id: z.number().int(), status: z.literal('AVAILABLE') }),
        errors: [400, 403, 404, 409],
      }),
      async (request) => offers.release(principalOf(request).userId, listingId(request)),
    );

    // ---- meet-ups
    app.post(
      '/meetups',
      doc({
        tag,
        auth: true,
        summary: 'Propose a meet-up (either student of a chat about the listing)',
        description:
          "`spotId` (GET /public/campus `meetupSpots`) or `place`; `startsAt` 15 minutes to 30 days ahead. `roomId` names the chat; a buyer may leave it out, and so may the seller of a reserved listing (the reserved buyer's chat). One open meet-up per chat and listing.",
        body: meetupBodySchema,
        status: 201,
        response: meetupResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await meetups.propose(principalOf(request).userId, request.body)),
    );
    const meetupAction = (
      path: string,
      summary: string,
      run: (userId: number, id: number) => Promise<unknown>,
    ) =>
      app.post(
        path,
        doc({
          tag,
          auth: true,
          summary,
          params: idParams,
          response: meetupResponse,
          errors: [400, 403, 404, 409],
        }),
        async (request) => run(principalOf(request).userId, meetupId(request)),
      );
    meetupAction(
      '/meetups/:id/accept',
      'Accept a proposed meet-up (the student who did not propose it)',
      (u, id) => meetups.answer(u, id, true),
    );
    meetupAction(
      '/meetups/:id/decline',
      'Decline a proposed meet-up (the student who did not propose it)',
      (u, id) => meetups.answer(u, id, false),
    );
    meetupAction('/meetups/:id/cancel', 'Cancel an open meet-up (either student)', (u, id) =>
      meetups.cancel(u, id),
    );
    meetupAction(
      '/meetups/:id/no-show',
      'Report the other student absent (15 minutes to 48 h after a CONFIRMED meet-up, no deal)',
      (u, id) => meetups.noShow(u, id),
    );
    app.get(
      '/meetups/:id.ics',
      doc({
        tag,
        auth: true,
        summary: 'The meet-up as a calendar event (RFC 5545, times in UTC), for either student',
        params: idParams,
        response: { text: 'BEGIN:VCALENDAR…' },
        errors: [400, 403, 404],
      }),
      async (request, reply) => {
        const id = meetupId(request);
        const body = await meetups.ics(principalOf(request).userId, id);
        return reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', `attachment; filename="meetup-${id}.ics"`)
          .send(body);
      },
    );

    // ---- hand-off
    app.get(
      '/listings/:id/handoff',
      doc({
        tag,
        auth: true,
        summary: 'The 4-digit hand-off code (the reserved buyer only)',
        params: idParams,
        response: handoffCodeResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => handoff.code(principalOf(request).userId, listingId(request)),
    );
    app.post(
      '/listings/:id/handoff',
      doc({
        tag,
        auth: true,
        summary: "Confirm the hand-off with the buyer's code (the seller): SOLD, a deal is recorded",
        description: '400 for a wrong code; the fifth wrong code locks hand-off for this reservation (409).',
        params: idParams,
        body: handoffBodySchema,
        response: handoffResultResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => handoff.confirm(principalOf(request).userId, listingId(request), request.body),
    );
  };
}
