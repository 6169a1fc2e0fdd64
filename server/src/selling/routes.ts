import {
  MESSAGES,
  SELLING_MESSAGES,
  listingResponse,
  pageQueryDoc,
  saveResponse,
  savedSearchDoc,
  savedSearchResponse,
  wantedDoc,
  wantedQueryDoc,
  wantedResponse,
} from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC as LINK, encodeCursor, nextLink, parsePage, type RawQuery } from '../http/paging.js';
import { idParams, pathId } from '../http/params.js';
import { z } from 'zod';
import { RenderedListings, parseFilters, type ListingsModule } from '../listings/index.js';
import type { SellingService } from './service.js';

export function sellingRoutes(ctx: AppContext, service: SellingService, listings: ListingsModule) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    // ---- favourites
    app.put(
      '/listings/:id/save',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Save a listing (idempotent; not your own)',
        params: idParams,
        response: saveResponse,
        errors: [400, 404],
      }),
      async (request) => {
        const id = pathId(request, MESSAGES.listingIdInvalid);
        await service.save(principalOf(request), id);
        return { id, savedByMe: true };
      },
    );
    app.delete(
      '/listings/:id/save',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Unsave a listing (idempotent)',
        params: idParams,
        response: saveResponse,
        errors: [400, 404],
      }),
      async (request) => {
        const id = pathId(request, MESSAGES.listingIdInvalid);
        await service.unsave(principalOf(request), id);
        return { id, savedByMe: false };
      },
    );
    app.get(
      '/listings/saved',
      doc({
        tag: 'selling',
        auth: true,
        summary: "The caller's saved listings, most recently saved first (sold ones too)",
        query: pageQueryDoc,
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const page = parsePage(request.query as RawQuery, 'browse');
        const result = await service.saved(principalOf(request), page.limit, page.cursor);
        if (result.next) reply.header('link', nextLink(request.url, encodeCursor(result.next)));
        const body = await listings.personaliser.body(
          new RenderedListings(result.listings, true),
          principalOf(request),
        );
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );

    // ---- saved searches
    app.post(
      '/searches',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Save a search (at most 20 per student)',
        body: savedSearchDoc,
        status: 201,
        response: savedSearchResponse,
        errors: [400, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await service.createSearch(principalOf(request), request.body)),
    );
    app.get(
      '/searches',
      doc({
        tag: 'selling',
        auth: true,
        summary: "The caller's saved searches (at most 20, newest first)",
        response: z.array(savedSearchResponse),
        errors: [],
      }),
      async (request) => service.searches(principalOf(request)),
    );
    app.delete(
      '/searches/:id',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Delete a saved search (owner only; others get 404)',
        params: idParams,
        response: z.object({ id: z.number().int() }),
        errors: [400, 404],
      }),
      async (request) => {
        const id = pathId(request, SELLING_MESSAGES.savedSearchIdInvalid);
        await service.deleteSearch(principalOf(request), id);
        return { id };
      },
    );

    // ---- wanted posts
    app.post(
      '/wanted',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Post a wanted item (at most 10 open; expires after 30 days)',
        body: wantedDoc,
        status: 201,
        response: wantedResponse,
        errors: [400, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await service.createWanted(principalOf(request), request.body)),
    );
    app.get(
      '/wanted',
      doc({
        tag: 'selling',
        auth: true,
        summary: "Everyone's open wanted posts, newest first",
        query: wantedQueryDoc,
        response: z.array(wantedResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const raw = request.query as RawQuery;
        const { categories } = parseFilters({ categories: raw.categories });
        const page = parsePage(raw, 'browse');
        const result = await service.openWanted(principalOf(request), categories, page.limit, page.cursor);
        if (result.next) reply.header('link', nextLink(request.url, encodeCursor(result.next)));
        return result.posts;
      },
    );
    app.get(
      '/wanted/self',
      doc({
        tag: 'selling',
        auth: true,
        summary: "The caller's wanted posts, open and expired, newest first",
        query: pageQueryDoc,
        response: z.array(wantedResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const page = parsePage(request.query as RawQuery, 'browse');
        const result = await service.myWanted(principalOf(request), page.limit, page.cursor);
        if (result.next) reply.header('link', nextLink(request.url, encodeCursor(result.next)));
        return result.posts;
      },
    );
    app.delete(
      '/wanted/:id',
      doc({
        tag: 'selling',
        auth: true,
        summary: 'Delete a wanted post (author only)',
        params: idParams,
        response: z.object({ id: z.number().int() }),
        errors: [400, 403, 404],
      }),
      async (request) => {
        const id = pathId(request, SELLING_MESSAGES.wantedIdInvalid);
        await service.deleteWanted(principalOf(request), id);
        return { id };
      },
    );
  };
}
