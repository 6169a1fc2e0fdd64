import { DB_INT_MAX, LIMITS, MESSAGES, chatMessageResponse, chatRoomResponse } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import { uploadRoutes } from '../http/uploads.js';
import type { ChatService } from './service.js';

const messageId = z.coerce
  .number({ error: MESSAGES.chatInvalidPage })
  .int(MESSAGES.chatInvalidPage)
  .min(0, MESSAGES.chatInvalidPage)
  .max(DB_INT_MAX, MESSAGES.chatInvalidPage);

const historyQuery = z.object({
  after: messageId.optional(),
  before: messageId.optional(),
  limit: z.coerce
    .number({ error: MESSAGES.chatInvalidPage })
    .int(MESSAGES.chatInvalidPage)
    .min(1, MESSAGES.chatInvalidPage)
    .max(LIMITS.chatPageMax, MESSAGES.chatInvalidPage)
    .optional(),
});

const roomParams = z.object({ roomId: z.string().max(40) });

/** Uploads a chat photo; answers the stored image URL (spec §7: "image URL as data"). */
export type ChatUploadHandler = (request: FastifyRequest) => Promise<string>;

export function chatRoutes(ctx: AppContext, service: ChatService, upload: ChatUploadHandler) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const auth = { preHandler: requireAuth(ctx) };

    app.get(
      '/api/chats',
      {
        ...auth,
        ...doc({
          tag: 'chat',
          auth: true,
          summary: "The caller's conversations, newest first",
          response: z.array(chatRoomResponse),
          errors: [],
        }),
      },
      async (request) => service.rooms(principalOf(request).userId),
    );

    app.get(
      '/api/chats/:roomId',
      {
        ...auth,
        ...doc({
          tag: 'chat',
          auth: true,
          summary: 'A page of a conversation, oldest first',
          params: roomParams,
          query: historyQuery,
          response: z.array(chatMessageResponse),
          headers: { link: 'Pages: `rel="next"` (newer) and `rel="prev"` (older)' },
          errors: [400, 403, 404],
        }),
      },
      async (request, reply) => {
        const { roomId } = parseOr400(roomParams, request.params);
        const q = parseOr400(historyQuery, request.query);
        const limit = q.limit ?? LIMITS.chatPageDefault;
        const page = await service.history(principalOf(request).userId, roomId, { ...q, limit });
        // roomId is a valid room id here (digits and one colon): history() checked it.
        const base = `/api/chats/${roomId}`;
        const links: string[] = [];
        const first = page.messages[0];
        const last = page.messages[page.messages.length - 1];
        if (page.hasNewer && last) links.push(`<${base}?after=${last.id}&limit=${limit}>; rel="next"`);
        if (page.hasOlder && first) links.push(`<${base}?before=${first.id}&limit=${limit}>; rel="prev"`);
        if (links.length > 0) reply.header('link', links.join(', '));
        return page.messages;
      },
    );

    app.post(
      '/api/chats/:roomId/read',
      {
        ...auth,
        ...doc({
          tag: 'chat',
          auth: true,
          summary: 'Mark a conversation read',
          params: roomParams,
          response: z.object({ roomId: z.string(), lastReadMessageId: z.number().int().nullable() }),
          errors: [400, 403, 404],
        }),
      },
      async (request) => {
        const { roomId } = parseOr400(roomParams, request.params);
        return service.markRead(principalOf(request).userId, roomId);
      },
    );

    await uploadRoutes(app, (uploads) =>
      uploads.post(
        '/api/chats/upload',
        {
          ...auth,
          ...doc({
            tag: 'chat',
            auth: true,
            summary: 'Upload a chat photo; answers its URL for a SEND',
            multipart: { files: ['image'] },
            response: { text: '/uploads/3f0c….jpg' },
            errors: [400, 413, 429],
          }),
        },
        async (request, reply) => {
          const url = await upload(request);
          return reply.type('text/plain; charset=utf-8').send(url);
        },
      ),
    );
  };
}
