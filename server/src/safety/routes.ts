import {
  SAFETY_MESSAGES,
  blockResponse,
  blockedUserResponse,
  deleteAccountSchema,
  exportResponse,
  messageResponse,
  reportCreateSchema,
  reportResponse,
  safetyMeResponse,
} from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { idParams, pathId } from '../http/params.js';
import type { ListingsModule } from '../listings/index.js';
import type { BlocksService } from './blocks.js';
import { isModerator } from './moderation.js';
import { deleteAccount, exportData } from './own-data.js';
import type { ReportsService } from './reports.js';

/** Student-facing safety routes: reports, blocks, own data. */
export function safetyRoutes(
  ctx: AppContext,
  deps: { reports: ReportsService; blocks: BlocksService; listings: ListingsModule },
) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    app.post(
      '/reports',
      doc({
        tag: 'safety',
        auth: true,
        summary: 'Report a listing, student or message you can see (one open report per target)',
        body: reportCreateSchema,
        status: 201,
        response: reportResponse,
        errors: [400, 404, 409],
      }),
      async (request, reply) =>
        reply.code(201).send(await deps.reports.create(principalOf(request), request.body)),
    );

    app.put(
      '/users/:id/block',
      doc({
        tag: 'safety',
        auth: true,
        summary:
          'Block a student (idempotent): no messages, offers or meet-ups either way; their listings hidden from you',
        params: idParams,
        response: blockResponse,
        errors: [400, 404],
      }),
      async (request) => {
        const id = pathId(request, SAFETY_MESSAGES.userIdInvalid);
        await deps.blocks.block(principalOf(request), id);
        return { id, blocked: true };
      },
    );
    app.delete(
      '/users/:id/block',
      doc({
        tag: 'safety',
        auth: true,
        summary: 'Unblock a student (idempotent)',
        params: idParams,
        response: blockResponse,
        errors: [400],
      }),
      async (request) => {
        const id = pathId(request, SAFETY_MESSAGES.userIdInvalid);
        await deps.blocks.unblock(principalOf(request), id);
        return { id, blocked: false };
      },
    );
    app.get(
      '/users/blocked',
      doc({
        tag: 'safety',
        auth: true,
        summary: 'The students you blocked, most recent first',
        response: z.array(blockedUserResponse),
        errors: [],
      }),
      async (request) => deps.blocks.list(principalOf(request)),
    );

    app.get(
      '/users/me/safety',
      doc({
        tag: 'safety',
        auth: true,
        summary: 'Whether you are a moderator (the web app shows /moderation)',
        response: safetyMeResponse,
        errors: [],
      }),
      async (request) => ({ moderator: isModerator(ctx, principalOf(request)) }),
    );

    app.get(
      '/users/me/export',
      doc({
        tag: 'safety',
        auth: true,
        summary: 'Every record you own, as JSON (table name -> rows; secrets left out)',
        response: exportResponse,
        errors: [],
      }),
      async (request, reply) => {
        const data = await exportData(ctx, principalOf(request));
        return reply
          .header('content-disposition', 'attachment; filename="campus-market-data.json"')
          .header('cache-control', 'no-store')
          .send(data);
      },
    );

    app.delete(
      '/users/me',
      doc({
        tag: 'safety',
        auth: true,
        summary:
          'Delete your account (password confirmed): listings, photos, saves, searches and wanted posts go; messages stay from "Deleted student"; every session ends',
        body: deleteAccountSchema,
        response: messageResponse,
        errors: [400, 404],
      }),
      async (request) => {
        await deleteAccount(ctx, deps.listings, principalOf(request), request.body);
        return { message: SAFETY_MESSAGES.accountDeleted };
      },
    );
  };
}
