import { MESSAGES } from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { readCreateForm } from './form.js';
import type { HotCache } from './hot-cache.js';
import {
  encodeCursor,
  nextLink,
  parseCategory,
  parseFilters,
  parsePage,
  parseSearchText,
  type RawQuery,
} from './query.js';
import type { ListingsService, Page } from './service.js';

function listingId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest(MESSAGES.listingIdInvalid);
  return Number(raw);
}

/** Body: a JSON array; the next page, if any, in a Link header (design §3). */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page) {
  if (page.next) reply.header('link', nextLink(request.url, encodeCursor(page.next)));
  return reply.send(page.listings);
}

/** Every listing call needs a bearer token (spec §6: only sign-up, verify, login, forgot are public). */
export function listingsRoutes(ctx: AppContext, service: ListingsService, cache: HotCache) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    /** Answers that are the same for every caller, served from the hot cache when fresh. */
    const cachedPage = async (request: FastifyRequest, reply: FastifyReply, load: () => Promise<Page>) => {
      const hit = cache.answer(request.url);
      if (hit) {
        if (hit.link) reply.header('link', hit.link);
        return reply.type('application/json; charset=utf-8').send(hit.body);
      }
      const page = await load();
      const link = page.next ? nextLink(request.url, encodeCursor(page.next)) : undefined;
      const body = JSON.stringify(page.listings);
      cache.remember(request.url, body, link);
      if (link) reply.header('link', link);
      return reply.type('application/json; charset=utf-8').send(body);
    };

    const create = async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = principalOf(request);
      await ctx.limits.consume('upload:account', String(principal.userId));
      const form = await readCreateForm(request);
      await service.create(principal, form.fields, form.image);
      return reply.code(201).type('text/plain; charset=utf-8').send(MESSAGES.listingCreated);
    };
    // Both paths of spec §7 behave the same.
    app.post('/listing', create);
    app.post('/listing/new', create);

    const browseAll = async (request: FastifyRequest, reply: FastifyReply) => {
      const page = parsePage(request.query as RawQuery, 'browse');
      return cachedPage(request, reply, () => service.browse(page));
    };
    app.get('/listings', browseAll);
    app.get('/listings/recent', browseAll);

    app.get('/listings/self', async (request, reply) => {
      const page = parsePage(request.query as RawQuery, 'browse');
      return sendPage(request, reply, await service.mine(principalOf(request), page));
    });

    app.get('/listings/filters', async (request, reply) => {
      const raw = request.query as RawQuery;
      const filters = parseFilters(raw);
      const page = parsePage(raw, 'browse');
      return sendPage(request, reply, await service.browse({ ...filters, ...page }));
    });

    app.get('/listings/search', async (request, reply) => {
      const raw = request.query as RawQuery;
      const text = parseSearchText(raw);
      const filters = parseFilters(raw);
      const page = parsePage(raw, text === '' ? 'browse' : 'search');
      return sendPage(request, reply, await service.searchListings(text, filters, page.limit, page.cursor));
    });

    // Static paths above win over this parametric one (Fastify's router prefers static segments).
    app.get('/listings/:category', async (request, reply) => {
      const category = parseCategory((request.params as { category: string }).category);
      const page = parsePage(request.query as RawQuery, 'browse');
      return cachedPage(request, reply, () => service.browse({ categories: [category], ...page }));
    });

    app.get('/listing/:id', async (request, reply) => {
      const id = listingId(request);
      const key = `/listing/${id}`;
      const hit = cache.answer(key);
      const body = hit?.body ?? JSON.stringify(await service.get(id));
      if (!hit) cache.remember(key, body, undefined);
      return reply.type('application/json; charset=utf-8').send(body);
    });

    app.put('/listings/sold/:id', async (request) =>
      service.toggleSold(principalOf(request), listingId(request)),
    );

    app.delete('/listing/:id', async (request, reply) => {
      const id = listingId(request);
      await service.remove(principalOf(request), id);
      return reply.send({ message: MESSAGES.listingDeleted, id });
    });
  };
}
