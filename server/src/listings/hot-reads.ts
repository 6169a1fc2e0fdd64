import { MESSAGES } from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../context.js';
import { principalOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import type { FastAnswer } from '../http/fast-lane.js';
import { encodeCursor, nextLink, parsePage, type PageParams } from '../http/paging.js';
import { parseId } from '../http/params.js';
import { cacheKey, type HotCache } from './hot-cache.js';
import { RenderedListings, type Personaliser } from './personalise.js';
import type { ListingsService, Page } from './service.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The hot cache's key of one listing's answer. */
const listingKey = (id: number) => `/listing/${id}`;

/** Loads one page of listings, without the given sellers' (a viewer's blocks). */
export type PageLoader = (excludeSellers?: readonly number[]) => Promise<Page>;

/**
 * The hottest reads — first pages of browsing, one listing — answered from the hot cache
 * (hot-cache.ts) and personalised per caller, before Fastify routes the request (the fast lane)
 * when everything is in memory, else through the route. Anything that cannot be answered the
 * same way for every caller (a viewer who blocked someone) is read anew and never cached. Each
 * read looks only at the caller's campus's entries (features.md §E).
 */
export class HotReads {
  constructor(
    private readonly service: ListingsService,
    private readonly cache: HotCache,
    private readonly personaliser: Personaliser,
  ) {}

  /** The same reads before routing (http/fast-lane.ts): a first page of browsing, one listing. */
  installFastLane(app: FastifyInstance): void {
    for (const path of ['/listings', '/listings/recent']) {
      const key = cacheKey(path, parsePage({}, 'browse'));
      app.fastLane.exactGet(path, (principal) => {
        const hit = this.cache.answer(principal.campusId, key);
        return this.answerFromMemory(principal, hit?.rendered, hit?.link);
      });
    }
    app.fastLane.prefixGet('/listing/', (rest, principal) => {
      // The route's own id rule; anything else is Fastify's to answer.
      const id = parseId(rest);
      return id === undefined
        ? undefined
        : this.answerFromMemory(principal, this.cache.answer(principal.campusId, listingKey(id))?.rendered);
    });
  }

  /**
   * Answers that are the same for every caller, served from the hot cache when fresh, then
   * personalised (savedByMe, seller counts) without parsing them again. Keyed by the parsed
   * parameters (`cacheKey`), so the Link header is built from them too: unknown parameters are
   * ignored, not echoed. Undefined when the answer was sent without waiting for anything.
   */
  page(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    params: PageParams,
    load: PageLoader,
  ): Promise<unknown> | undefined {
    const key = cacheKey(path, params);
    const hit = this.cache.answer(principalOf(request).campusId, key);
    if (this.sentFromMemory(request, reply, hit?.rendered, hit?.link)) return undefined;
    return this.loadPage(request, reply, key, load);
  }

  /** GET /listing/{id} as the caller sees it; undefined when sent without waiting for anything. */
  listing(request: FastifyRequest, reply: FastifyReply, id: number): Promise<unknown> | undefined {
    const cached = this.cache.answer(principalOf(request).campusId, listingKey(id))?.rendered;
    if (this.sentFromMemory(request, reply, cached)) return undefined;
    return this.readListing(request, reply, id, cached);
  }

  /** Body: a JSON array, personalised; the next page, if any, in a Link header (design §3). */
  async sendPage(request: FastifyRequest, reply: FastifyReply, page: Page): Promise<unknown> {
    if (page.next) reply.header('link', nextLink(request.url, encodeCursor(page.next)));
    const body = await this.personaliser.body(
      new RenderedListings(page.listings, true),
      principalOf(request),
    );
    return reply.type(JSON_TYPE).send(body);
  }

  /** A rendered answer as this caller sees it: from memory when it can (bodyNow), else with reads. */
  private async personalised(request: FastifyRequest, rendered: RenderedListings) {
    const principal = principalOf(request);
    return this.personaliser.bodyNow(rendered, principal) ?? this.personaliser.body(rendered, principal);
  }

  /**
   * The hottest reads answered without a promise (reads ≥ 0.8 × a bare server): the
   * cached rendering, the caller's blocks and saved listings all in memory, nothing to wait for.
   * Undefined when any of them is not in memory: the caller then takes the path with reads.
   */
  private answerFromMemory(
    principal: Principal,
    rendered: RenderedListings | undefined,
    link?: string,
  ): FastAnswer | undefined {
    if (!rendered) return undefined;
    const hidden = this.service.hiddenSellersNow(principal.userId);
    // A viewer who blocked someone: the page without those sellers, or no such listing.
    if (!hidden || hidden.size > 0) return undefined;
    const body = this.personaliser.bodyNow(rendered, principal);
    return body === undefined ? undefined : { body, link };
  }

  private sentFromMemory(
    request: FastifyRequest,
    reply: FastifyReply,
    rendered: RenderedListings | undefined,
    link?: string,
  ): boolean {
    const answer = this.answerFromMemory(principalOf(request), rendered, link);
    if (!answer) return false;
    if (answer.link) reply.header('link', answer.link);
    reply.type(JSON_TYPE).send(answer.body);
    return true;
  }

  private async loadPage(request: FastifyRequest, reply: FastifyReply, key: string, load: PageLoader) {
    // A viewer who blocked someone gets their own page without those sellers (never cached).
    const { userId, campusId } = principalOf(request);
    const hidden = await this.service.hiddenSellersFor(userId);
    if (hidden.size > 0) return this.sendPage(request, reply, await load([...hidden]));
    const hit = this.cache.answer(campusId, key);
    if (hit?.rendered) {
      if (hit.link) reply.header('link', hit.link);
      return reply.type(JSON_TYPE).send(await this.personalised(request, hit.rendered));
    }
    const page = await load();
    const link = page.next ? nextLink(key, encodeCursor(page.next)) : undefined;
    const rendered = new RenderedListings(page.listings, true);
    this.cache.remember(campusId, key, rendered.plain, link, rendered);
    if (link) reply.header('link', link);
    return reply.type(JSON_TYPE).send(await this.personalised(request, rendered));
  }

  /** One listing as the caller sees it: the hot cache's rendering when the handler found one. */
  private async readListing(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    cached: RenderedListings | undefined,
  ) {
    const { userId, campusId } = principalOf(request);
    let rendered = cached;
    if (!rendered) {
      rendered = new RenderedListings([await this.service.get(campusId, id)], false);
      this.cache.remember(campusId, listingKey(id), rendered.plain, undefined, rendered);
    }
    // The blocker no longer sees the blocked student's listings (safety).
    const hidden = await this.service.hiddenSellersFor(userId);
    if (hidden.has(rendered.sellers[0] as number)) throw notFound(MESSAGES.listingNotFound);
    return reply.type(JSON_TYPE).send(await this.personalised(request, rendered));
  }
}
