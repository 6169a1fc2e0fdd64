import {
  MESSAGES,
  SAFETY_MESSAGES,
  auditEntryResponse,
  modActionResponse,
  modReasonSchema,
  modReportGroupResponse,
  modReportsQuery,
  suspendSchema,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { badRequest, forbidden, parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import { LINK_HEADER_DOC as LINK } from '../http/paging.js';
import { idParams, pathId } from '../http/params.js';
import { isModerator, type ModerationService } from './moderation.js';
import { reportQueue } from './queue.js';

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().default(50),
  cursor: z.coerce.number().int().min(1).max(2147483647).optional(),
});
const optionalReason = z.object({ reason: z.string().max(500).optional() }).optional();

function parsePaging(request: FastifyRequest) {
  const q = request.query as Record<string, unknown>;
  const parsed = pageQuery.safeParse({ limit: q.limit, cursor: q.cursor });
  if (!parsed.success) throw badRequest(SAFETY_MESSAGES.pageInvalid);
  return parsed.data;
}

function nextUrl(request: FastifyRequest, cursor: number): string {
  const url = new URL(request.url, 'http://x');
  url.searchParams.set('cursor', String(cursor));
  return `<${url.pathname}${url.search}>; rel="next"`;
}

/**
 * /mod: a campus's moderators, on their campus only, and operators (OPERATOR_EMAILS), on every
 * campus (reach.ts); 403 for every other student, 401 without a token.
 */
export function modRoutes(ctx: AppContext, moderation: ModerationService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));
    app.addHook('preHandler', async (request) => {
      if (!isModerator(ctx, principalOf(request))) throw forbidden(SAFETY_MESSAGES.notModerator);
    });
    const ok = (message: string) => ({ message });

    app.get(
      '/mod/reports',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Reports grouped by target, with the reported content and every reason (newest first)',
        query: modReportsQuery.extend(pageQuery.shape),
        response: z.array(modReportGroupResponse),
        headers: LINK,
        errors: [400, 403],
      }),
      async (request, reply) => {
        const { status } = parseOr400(modReportsQuery, {
          status: (request.query as { status?: string }).status,
        });
        const page = parsePaging(request);
        const result = await reportQueue(ctx, principalOf(request), status, page.limit, page.cursor);
        if (result.nextBefore !== undefined) reply.header('link', nextUrl(request, result.nextBefore));
        return result.groups;
      },
    );

    app.post(
      '/mod/reports/:id/dismiss',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Dismiss a report and every other open report about the same target',
        params: idParams,
        body: optionalReason,
        response: modActionResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => {
        await moderation.dismiss(
          principalOf(request),
          pathId(request, SAFETY_MESSAGES.reportIdInvalid),
          request.body,
        );
        return ok('Report dismissed');
      },
    );

    app.post(
      '/mod/listings/:id/remove',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Remove a listing for everyone; the seller is e-mailed the reason',
        params: idParams,
        body: modReasonSchema,
        response: modActionResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => {
        await moderation.removeListing(
          principalOf(request),
          pathId(request, MESSAGES.listingIdInvalid),
          request.body,
        );
        return ok('Listing removed; the seller is e-mailed the reason');
      },
    );

    app.post(
      '/mod/listings/:id/restore',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Show a removed or report-hidden listing again',
        params: idParams,
        body: optionalReason,
        response: modActionResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => {
        await moderation.restoreListing(
          principalOf(request),
          pathId(request, MESSAGES.listingIdInvalid),
          request.body,
        );
        return ok('Listing restored');
      },
    );

    app.post(
      '/mod/users/:id/suspend',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Suspend a student for `days` (or until further notice): every session closes at once',
        params: idParams,
        body: suspendSchema,
        response: modActionResponse,
        errors: [400, 403, 404],
      }),
      async (request) => {
        await moderation.suspend(
          principalOf(request),
          pathId(request, SAFETY_MESSAGES.userIdInvalid),
          request.body,
        );
        return ok('Student suspended');
      },
    );

    app.post(
      '/mod/users/:id/unsuspend',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'End a suspension',
        params: idParams,
        body: optionalReason,
        response: modActionResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => {
        await moderation.unsuspend(
          principalOf(request),
          pathId(request, SAFETY_MESSAGES.userIdInvalid),
          request.body,
        );
        return ok('Suspension ended');
      },
    );

    app.get(
      '/mod/audit',
      doc({
        tag: 'moderation',
        auth: true,
        summary: 'Every moderator action, newest first: who, what, when, why (append-only)',
        query: pageQuery,
        response: z.array(auditEntryResponse),
        headers: LINK,
        errors: [400, 403],
      }),
      async (request, reply) => {
        const page = parsePaging(request);
        const result = await moderation.auditLog(principalOf(request), page.limit, page.cursor);
        const last = result.entries[result.entries.length - 1];
        if (result.more && last) reply.header('link', nextUrl(request, last.id));
        return result.entries;
      },
    );
  };
}
