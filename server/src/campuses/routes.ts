import { campusResponse, campusesResponse } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requestToken } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { campusInfo, campusSummary, type Campus } from './registry.js';

/**
 * The campus a request is about when nothing else says: the logged-in student's, else the campus
 * whose `hosts` list the request's Host, else the default campus (features.md §E).
 */
export function campusOfRequest(ctx: AppContext, request: FastifyRequest): Promise<Campus> {
  return campusFor(ctx, requestToken(request), request.hostname);
}

/** The same, from a token (a bearer header, or the page cookie) and a Host. */
export async function campusFor(
  ctx: AppContext,
  token: string | null | undefined,
  host: string,
): Promise<Campus> {
  if (token) {
    const principal = ctx.authenticateCached?.(token) ?? (await ctx.authenticate(token).catch(() => null));
    if (principal) return ctx.campuses.byId(principal.campusId);
  }
  return ctx.campuses.forHost(host) ?? ctx.campuses.default;
}

export function campusesRoutes(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get(
      '/public/campuses',
      doc({
        tag: 'campuses',
        summary: 'Every campus students can join (the "find your campus" picker)',
        response: campusesResponse,
        errors: [],
      }),
      async () => ctx.campuses.open().map(campusSummary),
    );

    app.get(
      '/public/campus',
      doc({
        tag: 'campuses',
        summary: "The campus of the request: the student's, else the Host's, else the default",
        response: campusResponse,
        errors: [],
      }),
      async (request) => campusInfo(await campusOfRequest(ctx, request)),
    );
  };
}
