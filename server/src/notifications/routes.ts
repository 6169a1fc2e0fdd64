import {
  chatPresenceResponse,
  markNotificationsReadBody,
  markNotificationsReadResponse,
  notificationPageQuery,
  notificationPageResponse,
  notificationSettingsBody,
  notificationSettingsResponse,
  parseRoomId,
  pushKeyResponse,
  pushSubscriptionBody,
  pushUnsubscribeBody,
  MESSAGES,
} from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { forbidden, notFound, parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import type { NotificationService } from './service.js';

const tag = 'notifications';

export function publicNotificationRoutes(service: NotificationService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get(
      '/public/push-key',
      doc({
        tag,
        summary: 'The VAPID public key for PushManager.subscribe (base64url)',
        response: pushKeyResponse,
        errors: [],
      }),
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=3600');
        return { publicKey: service.publicKey };
      },
    );
  };
}

export function notificationRoutes(ctx: AppContext, service: NotificationService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('preHandler', requireAuth(ctx));

    app.get(
      '/notifications',
      doc({
        tag,
        auth: true,
        summary: 'The notification centre, newest first (page with `before` = the previous nextBefore)',
        query: notificationPageQuery,
        response: notificationPageResponse,
        errors: [400],
      }),
      async (request) => service.list(principalOf(request), request.query),
    );
    app.post(
      '/notifications/read',
      doc({
        tag,
        auth: true,
        summary: 'Move the read marker: every notification up to `upTo` is read',
        body: markNotificationsReadBody,
        response: markNotificationsReadResponse,
        errors: [400],
      }),
      async (request) => service.markRead(principalOf(request), request.body),
    );
    app.get(
      '/users/me/notification-settings',
      doc({
        tag,
        auth: true,
        summary: 'E-mail and push switches for every kind',
        response: notificationSettingsResponse,
        errors: [],
      }),
      async (request) => service.settings(principalOf(request)),
    );
    app.put(
      '/users/me/notification-settings',
      doc({
        tag,
        auth: true,
        summary: 'Turn kinds on or off per channel (only the ones sent change)',
        body: notificationSettingsBody,
        response: notificationSettingsResponse,
        errors: [400],
      }),
      async (request) => service.updateSettings(principalOf(request), request.body),
    );
    app.post(
      '/push/subscriptions',
      doc({
        tag,
        auth: true,
        summary: "Register this browser's PushSubscription (public https: endpoints only)",
        body: pushSubscriptionBody,
        status: 201,
        response: z.object({ subscribed: z.literal(true) }),
        errors: [400, 503],
      }),
      async (request, reply) => {
        await service.subscribe(principalOf(request), request.body);
        return reply.code(201).send({ subscribed: true });
      },
    );
    app.delete(
      '/push/subscriptions',
      doc({
        tag,
        auth: true,
        summary: 'Stop pushing to this endpoint (idempotent)',
        body: pushUnsubscribeBody,
        status: 204,
        errors: [400],
      }),
      async (request, reply) => {
        const { endpoint } = parseOr400(pushUnsubscribeBody, request.body);
        await service.unsubscribe(principalOf(request), endpoint);
        return reply.code(204).send();
      },
    );
    app.get(
      '/api/chats/:roomId/presence',
      doc({
        tag,
        auth: true,
        summary:
          'The other party\'s read marker (where "Seen" goes); live changes arrive on /user/queue/presence',
        params: z.object({ roomId: z.string() }),
        response: chatPresenceResponse,
        errors: [403, 404],
      }),
      async (request) => {
        const { roomId } = request.params as { roomId: string };
        const { userId, campusId } = principalOf(request);
        const pair = parseRoomId(roomId);
        if (!pair) throw notFound(MESSAGES.notFound);
        if (pair[0] !== userId && pair[1] !== userId) throw forbidden(MESSAGES.chatRoomForbidden);
        const peer = pair[0] === userId ? pair[1] : pair[0];
        const row = await ctx.db.kysely
          .selectFrom('chat_reads')
          .select('last_read_message_id')
          .where('campus_id', '=', campusId)
          .where('room_id', '=', roomId)
          .where('user_id', '=', peer)
          .executeTakeFirst();
        return { roomId, peerLastReadMessageId: row?.last_read_message_id ?? null };
      },
    );
  };
}
