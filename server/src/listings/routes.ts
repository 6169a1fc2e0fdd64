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
  SELLING_MESSAGES,
  type Listing,
} from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC as LINK, parsePage, type RawQuery } from '../http/paging.js';
import { idParams, idSchema, pathId } from '../http/params.js';
import { withUploadSlot, uploadRoutes } from '../http/uploads.js';
import { registerCourseRoutes } from './courses.js';
import { discardIncoming } from '../media/index.js';
import { readCreateForm, readPhotoForm } from './form.js';
import type { HotCache } from './hot-cache.js';
import { HotReads, JSON_TYPE } from './hot-reads.js';
import { RenderedListings, type Personaliser } from './personalise.js';
import type { PhotosService } from './photos.js';
import { cursorKindFor, parseCategory, parseFilters, parseSearchText, parseSort } from './query.js';
import type { ListingsService } from './service.js';

export interface ListingsRouteDeps {
  personaliser: Personaliser;
  photos: PhotosService;
}

const listingId = (request: FastifyRequest) => pathId(request, MESSAGES.listingIdInvalid);

/** Every listing call needs a bearer token (spec §6: only sign-up, verify, login, forgot are public). */
export function listingsRoutes(
  ctx: AppContext,
  service: ListingsService,
  cache: HotCache,
  { personaliser, photos }: ListingsRouteDeps,
) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    const reads = new HotReads(service, cache, personaliser);
    reads.installFastLane(app);

    /** One listing as the caller sees it, read anew (after an edit). */
    const answerListing = async (request: FastifyRequest, reply: FastifyReply, listing: Listing) => {
      const rendered = new RenderedListings([listing], false);
      return reply.type(JSON_TYPE).send(await personaliser.body(rendered, principalOf(request)));
    };
    const sendListing = async (request: FastifyRequest, reply: FastifyReply, id: number) =>
      answerListing(request, reply, await service.get(principalOf(request).campusId, id));

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
      const { campusId } = principalOf(request);
      return reads.page(request, reply, request.routeOptions.url ?? '/listings', page, (excludeSellers) =>
        service.browse({ ...page, campusId, excludeSellers }),
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
        return reads.sendPage(request, reply, await service.mine(principalOf(request), page));
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
        const { userId, campusId } = principalOf(request);
        const hidden = await service.hiddenSellersFor(userId);
        return reads.sendPage(
          request,
          reply,
          await service.browse({ ...filters, ...page, campusId, sort, excludeSellers: [...hidden] }),
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
        const { userId, campusId } = principalOf(request);
        const hidden = await service.hiddenSellersFor(userId);
        return reads.sendPage(
          request,
          reply,
          await service.searchListings(campusId, text, filters, page.limit, page.cursor, sort, [...hidden]),
        );
      },
    );

    registerCourseRoutes(app, service);

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
        const { campusId } = principalOf(request);
        return reads.page(request, reply, `/listings/${category}`, page, (excludeSellers) =>
          service.browse({ categories: [category], ...page, campusId, excludeSellers }),
        );
      },
    );

    app.get(
      '/listing/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'One listing',
        params: idParams,
        response: listingResponse,
        errors: [400, 404],
      }),
      (request: FastifyRequest, reply: FastifyReply) => reads.listing(request, reply, listingId(request)),
    );

    app.patch(
      '/listing/:id',
      doc({
        tag: 'listings',
        auth: true,
        summary: 'Edit a listing (seller only): any of the create fields, same rules; 30 edits an hour',
        params: idParams,
        body: editListingDoc,
        response: listingResponse,
        errors: [400, 403, 404, 429],
      }),
      async (request, reply) => {
        const edited = await service.edit(principalOf(request), listingId(request), request.body);
        return answerListing(request, reply, edited);
      },
    );

    const photoParams = idParams.extend({ photoId: idSchema });
    await uploadRoutes(app, (uploads) =>
      uploads.post(
        '/listing/:id/photos',
        doc({
          tag: 'listings',
          auth: true,
          summary: 'Add one photo (seller only, at most 8 per listing)',
          params: idParams,
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
        const photoId = pathId(request, SELLING_MESSAGES.photoIdInvalid, 'photoId');
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
        params: idParams,
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
        params: idParams,
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
        params: idParams,
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
