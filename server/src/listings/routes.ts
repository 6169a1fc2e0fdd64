import {
  CATEGORIES,
  MESSAGES,
  createListingSchema,
  editListingDoc,
  listingExtrasDoc,
  photoOrderDoc,
  filterQueryDoc,
  listingResponse,
  messageResponse,
  pageQueryDoc,
  searchQueryDoc,
  type Listing,
} from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, Principal } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { badRequest, notFound } from '../http/errors.js';
import type { FastAnswer } from '../http/fast-lane.js';
import { doc } from '../http/openapi.js';
import { withUploadSlot, uploadRoutes } from '../http/uploads.js';
import { discardIncoming } from '../media/index.js';
import { readCreateForm, readPhotoForm } from './form.js';
import { cacheKey, type HotCache } from './hot-cache.js';
import { RenderedListings, type Personaliser } from './personalise.js';
import { parsePhotoId, type PhotosService } from './photos.js';
import {
  cursorKindFor,
  encodeCursor,
  nextLink,
  parseCategory,
  parseFilters,
  parsePage,
  parseSearchText,
  parseSort,
  type PageParams,
  type RawQuery,
} from './query.js';
import type { ListingsService, Page } from './service.js';

export interface ListingsRouteDeps {
  personaliser: Personaliser;
  photos: PhotosService;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const LINK = { link: 'The next page: `<url>; rel="next"` (absent on the last page)' };
const listingIdParams = z.object({ id: z.number().int().min(1).max(999_999_999) });

/** A listing id as a path names it: 1–9 digits, not 0; undefined otherwise. */
function parseListingId(raw: string): number | undefined {
  return /^\d{1,9}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : undefined;
}

function listingId(request: FastifyRequest): number {
  const id = parseListingId((request.params as { id?: string }).id ?? '');
  if (id === undefined) throw badRequest(MESSAGES.listingIdInvalid);
  return id;
}

/** The hot cache's key of one listing's answer. */
const listingKey = (id: number) => `/listing/${id}`;

/** Every listing call needs a bearer token (spec §6: only sign-up, verify, login, forgot are public). */
export function listingsRoutes(
  ctx: AppContext,
  service: ListingsService,
  cache: HotCache,
  { personaliser, photos }: ListingsRouteDeps,
) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    /** A rendered answer as this caller sees it: from memory when it can (bodyNow), else with reads. */
    const personalised = async (request: FastifyRequest, rendered: RenderedListings) => {
      const principal = principalOf(request);
      return personaliser.bodyNow(rendered, principal) ?? personaliser.body(rendered, principal);
    };

    /** Body: a JSON array, personalised; the next page, if any, in a Link header (design §3). */
    const sendPage = async (request: FastifyRequest, reply: FastifyReply, page: Page) => {
      if (page.next) reply.header('link', nextLink(request.url, encodeCursor(page.next)));
      const body = await personaliser.body(new RenderedListings(page.listings, true), principalOf(request));
      return reply.type(JSON_TYPE).send(body);
    };

    /**
     * The hottest reads answered without a promise (reads ≥ 0.8 × a bare server): the
     * cached rendering, the caller's blocks and saved listings all in memory, nothing to wait for.
     * Undefined when any of them is not in memory: the caller then takes the path with reads.
     */
    const answerFromMemory = (
      principal: Principal,
      rendered: RenderedListings | undefined,
      link?: string,
    ): FastAnswer | undefined => {
      if (!rendered) return undefined;
      const hidden = service.hiddenSellersNow(principal.userId);
      // A viewer who blocked someone: the page without those sellers, or no such listing.
      if (!hidden || hidden.size > 0) return undefined;
      const body = personaliser.bodyNow(rendered, principal);
      return body === undefined ? undefined : { body, link };
    };

    const sentFromMemory = (
      request: FastifyRequest,
      reply: FastifyReply,
      rendered: RenderedListings | undefined,
      link?: string,
    ): boolean => {
      const answer = answerFromMemory(principalOf(request), rendered, link);
      if (!answer) return false;
      if (answer.link) reply.header('link', answer.link);
      reply.type(JSON_TYPE).send(answer.body);
      return true;
    };

    // The same reads before routing (http/fast-lane.ts): a first page of browsing, one listing.
    for (const path of ['/listings', '/listings/recent']) {
      const key = cacheKey(path, parsePage({}, 'browse'));
      app.fastLane.exactGet(path, (principal) => {
        const hit = cache.answer(key);
        return answerFromMemory(principal, hit?.rendered, hit?.link);
      });
    }
    app.fastLane.prefixGet('/listing/', (rest, principal) => {
      // The route's own id rule; anything else is Fastify's to answer.
      const id = parseListingId(rest);
      return id === undefined
        ? undefined
        : answerFromMemory(principal, cache.answer(listingKey(id))?.rendered);
    });

    /**
     * Answers that are the same for every caller, served from the hot cache when fresh, then
     * personalised (savedByMe, seller counts) without parsing them again. Keyed by the parsed
     * parameters (`cacheKey`), so the Link header is built from them too: unknown parameters are
     * ignored, not echoed.
     */
    const cachedPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      path: string,
      params: PageParams,
      load: (excludeSellers?: readonly number[]) => Promise<Page>,
    ): Promise<unknown> | undefined => {
      const key = cacheKey(path, params);
      const hit = cache.answer(key);
      if (sentFromMemory(request, reply, hit?.rendered, hit?.link)) return undefined;
      return loadPage(request, reply, key, load);
    };

    const loadPage = async (
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      load: (excludeSellers?: readonly number[]) => Promise<Page>,
    ) => {
      // A viewer who blocked someone gets their own page without those sellers (never cached).
      const userId = principalOf(request).userId;
      const hidden = await service.hiddenSellersFor(userId);
      if (hidden.size > 0) return sendPage(request, reply, await load([...hidden]));
      const hit = cache.answer(key);
      if (hit?.rendered) {
        if (hit.link) reply.header('link', hit.link);
        return reply.type(JSON_TYPE).send(await personalised(request, hit.rendered));
      }
      const page = await load();
      const link = page.next ? nextLink(key, encodeCursor(page.next)) : undefined;
      const rendered = new RenderedListings(page.listings, true);
      cache.remember(key, rendered.plain, link, rendered);
      if (link) reply.header('link', link);
      return reply.type(JSON_TYPE).send(await personalised(request, rendered));
    };

    /** One listing as the caller sees it: the hot cache's rendering when the handler found one. */
    const readListing = async (
      request: FastifyRequest,
      reply: FastifyReply,
      id: number,
      cached: RenderedListings | undefined,
    ) => {
      let rendered = cached;
      if (!rendered) {
        rendered = new RenderedListings([await service.get(id)], false);
        cache.remember(listingKey(id), rendered.plain, undefined, rendered);
      }
      // The blocker no longer sees the blocked student's listings (safety).
      const userId = principalOf(request).userId;
      const hidden = await service.hiddenSellersFor(userId);
      if (hidden.has(rendered.sellers[0] as number)) throw notFound(MESSAGES.listingNotFound);
      return reply.type(JSON_TYPE).send(await personalised(request, rendered));
    };

    /** One listing as the caller sees it, read anew (after an edit). */
    const answerListing = async (request: FastifyRequest, reply: FastifyReply, listing: Listing) => {
      const rendered = new RenderedListings([listing], false);
      return reply.type(JSON_TYPE).send(await personaliser.body(rendered, principalOf(request)));
    };
    const sendListing = async (request: FastifyRequest, reply: FastifyReply, id: number) =>
      answerListing(request, reply, await service.get(id));

    const create = async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = principalOf(request);
      await ctx.limits.consume('upload:account', String(principal.userId));
      await withUploadSlot(ctx, principal.userId, async () => {
        const form = await readCreateForm(request, {
          dataDir: ctx.config.dataDir,
          check: (fields) => service.checkCreate(principal, fields),
        });
        try {
          await service.create(principal, form.fields, form.images, { checked: form.checked });
        } finally {
          await discardIncoming(form.images);
        }
      });
      return reply.code(201).type('text/plain; charset=utf-8').send(MESSAGES.listingCreated);
    };
    // Both paths of spec §7 behave the same.
    const createDoc = doc({
      tag: 'listings',
      auth: true,
      summary: 'Post a listing (multipart form, up to 8 repeated `image` parts; the first is the cover)',
      multipart: { fields: createListingSchema.extend(listingExtrasDoc.shape), files: ['image'] },
      status: 201,
      response: { text: MESSAGES.listingCreated },
      errors: [400, 413, 429, 503],
    });
    await uploadRoutes(app, (uploads) => {
      uploads.post('/listing', createDoc, create);
      uploads.post('/listing/new', createDoc, create);
    });

    const browseAll = (request: FastifyRequest, reply: FastifyReply) => {
      const page = parsePage(request.query as RawQuery, 'browse');
      return cachedPage(request, reply, request.routeOptions.url ?? '/listings', page, (excludeSellers) =>
        service.browse({ ...page, excludeSellers }),
      );
    };
    const browseDoc = doc({
      tag: 'listings',
      auth: true,
      summary: 'Newest listings first',
      query: pageQueryDoc,
      response: z.array(listingResponse),
      headers: LINK,
      errors: [400],
    });
    app.get('/listings', browseDoc, browseAll);
    app.get('/listings/recent', browseDoc, browseAll);

    app.get(
      '/listings/self',
      doc({
        tag: 'listings',
        auth: true,
        summary: "The caller's own listings",
        query: pageQueryDoc,
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const page = parsePage(request.query as RawQuery, 'browse');
        return sendPage(request, reply, await service.mine(principalOf(request), page));
      },
    );

    app.get(
      '/listings/filters',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Listings by categories, price range, condition, course code or ISBN, in a chosen order',
        query: filterQueryDoc,
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const raw = request.query as RawQuery;
        const filters = parseFilters(raw);
        const requested = parseSort(raw, 'newest');
        // Relevance needs words to rank by: browsing ranks newest first.
        const sort = requested === 'relevance' ? 'newest' : requested;
        const page = parsePage(raw, cursorKindFor(sort, false));
        const hidden = await service.hiddenSellersFor(principalOf(request).userId);
        return sendPage(
          request,
          reply,
          await service.browse({ ...filters, ...page, sort, excludeSellers: [...hidden] }),
        );
      },
    );

    app.get(
      '/listings/search',
      doc({
        tag: 'listings',
        auth: true,
        summary:
          'Fuzzy search with filters; best match first (course code / ISBN matches lead) or a chosen order',
        query: searchQueryDoc,
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      async (request, reply) => {
        const raw = request.query as RawQuery;
        const text = parseSearchText(raw);
        const filters = parseFilters(raw);
        const sort = parseSort(raw, 'relevance');
        const page = parsePage(raw, cursorKindFor(sort, text !== ''));
        const hidden = await service.hiddenSellersFor(principalOf(request).userId);
        return sendPage(
          request,
          reply,
          await service.searchListings(text, filters, page.limit, page.cursor, sort, [...hidden]),
        );
      },
    );

    // Static paths above win over this parametric one (Fastify's router prefers static segments).
    app.get(
      '/listings/:category',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Newest listings of one category',
        params: z.object({ category: z.enum(CATEGORIES) }),
        query: pageQueryDoc,
        response: z.array(listingResponse),
        headers: LINK,
        errors: [400],
      }),
      (request, reply) => {
        const category = parseCategory((request.params as { category: string }).category);
        const page = parsePage(request.query as RawQuery, 'browse');
        return cachedPage(request, reply, `/listings/${category}`, page, (excludeSellers) =>
          service.browse({ categories: [category], ...page, excludeSellers }),
        );
      },
    );

    app.get(
      '/listing/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'One listing',
        params: listingIdParams,
        response: listingResponse,
        errors: [400, 404],
      }),
      (request: FastifyRequest, reply: FastifyReply) => {
        const id = listingId(request);
        const cached = cache.answer(listingKey(id))?.rendered;
        if (sentFromMemory(request, reply, cached)) return undefined;
        return readListing(request, reply, id, cached);
      },
    );

    app.patch(
      '/listing/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Edit a listing (seller only): any of the create fields, same rules; 30 edits an hour',
        params: listingIdParams,
        body: editListingDoc,
        response: listingResponse,
        errors: [400, 403, 404, 429],
      }),
      async (request, reply) => {
        const edited = await service.edit(principalOf(request), listingId(request), request.body);
        return answerListing(request, reply, edited);
      },
    );

    const photoParams = listingIdParams.extend({ photoId: z.number().int().min(1).max(2147483647) });
    await uploadRoutes(app, (uploads) =>
      uploads.post(
        '/listing/:id/photos',
        doc({
          tag: 'listings',
          auth: true,
          summary: 'Add one photo (seller only, at most 8 per listing)',
          params: listingIdParams,
          multipart: { files: ['image'] },
          status: 201,
          response: listingResponse,
          errors: [400, 403, 404, 413, 429, 503],
        }),
        async (request, reply) => {
          const principal = principalOf(request);
          const id = listingId(request);
          await ctx.limits.consume('upload:account', String(principal.userId));
          await withUploadSlot(ctx, principal.userId, async () => {
            // Not the seller's listing, or already full: refused before the photo is read.
            await photos.checkAdd(principal, id);
            const image = await readPhotoForm(request, ctx.config.dataDir);
            try {
              await photos.add(principal, id, image);
            } finally {
              await discardIncoming([image]);
            }
          });
          reply.code(201);
          return sendListing(request, reply, id);
        },
      ),
    );

    app.delete(
      '/listing/:id/photos/:photoId',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Remove one photo (seller only); its files are deleted after the row',
        params: photoParams,
        response: listingResponse,
        errors: [400, 403, 404],
      }),
      async (request, reply) => {
        const id = listingId(request);
        const photoId = parsePhotoId((request.params as { photoId?: string }).photoId);
        await photos.remove(principalOf(request), id, photoId);
        return sendListing(request, reply, id);
      },
    );

    app.put(
      '/listing/:id/photos/order',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Reorder the photos (seller only): every photo id once; the first is the cover',
        params: listingIdParams,
        body: photoOrderDoc,
        response: listingResponse,
        errors: [400, 403, 404],
      }),
      async (request, reply) => {
        const id = listingId(request);
        await photos.reorder(principalOf(request), id, request.body);
        return sendListing(request, reply, id);
      },
    );

    app.put(
      '/listings/sold/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Toggle sold (owner only)',
        params: listingIdParams,
        response: listingResponse,
        errors: [400, 403, 404],
      }),
      async (request) =>
        personaliser.listing(
          await service.toggleSold(principalOf(request), listingId(request)),
          principalOf(request),
        ),
    );

    app.delete(
      '/listing/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Delete a listing (owner only)',
        params: listingIdParams,
        response: messageResponse.extend({ id: z.number().int() }),
        errors: [400, 403, 404],
      }),
      async (request, reply) => {
        const id = listingId(request);
        await service.remove(principalOf(request), id);
        return reply.send({ message: MESSAGES.listingDeleted, id });
      },
    );
  };
}
