import { MESSAGES, STOMP_PATHS } from '@campus/contract';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { ChatEvent } from './broker.js';
import type { ChatService } from './service.js';
import { StompServer } from './stomp/server.js';
import { CLOSE, StompError, bearerToken, type SessionOptions, type StompHooks } from './stomp/session.js';

/** /app/chat.send/{buyerId}/{sellerId} -> the two ids, or null. */
export function parseSendDestination(destination: string): { buyerId: number; sellerId: number } | null {
  if (!destination.startsWith(STOMP_PATHS.sendPrefix)) return null;
  const m = /^(\d{1,15})\/(\d{1,15})$/.exec(destination.slice(STOMP_PATHS.sendPrefix.length));
  return m ? { buyerId: Number(m[1]), sellerId: Number(m[2]) } : null;
}

export function roomDestination(roomId: string): string {
  return STOMP_PATHS.subscribePrefix + roomId;
}

/** Service errors (HttpError) become ERROR frames carrying the same person-facing message. */
function toStompError(err: unknown): unknown {
  if (err instanceof HttpError && err.statusCode < 500) {
    return new StompError(err.message, err.code, CLOSE.policy);
  }
  return err;
}

/** The STOMP surface of chat: authentication, subscription rules, SEND -> service. */
export function chatStompHooks(ctx: AppContext, service: ChatService): StompHooks {
  return {
    async authenticate(headers) {
      const token = bearerToken(headers);
      if (!token)
        throw new StompError(MESSAGES.unauthorized, 'CONNECT needs an Authorization: Bearer <token> header');
      const principal = await ctx.authenticate(token);
      const claims = principal ? await ctx.tokens.verify(token) : null;
      if (!principal || !claims)
        throw new StompError(MESSAGES.unauthorized, 'The token is invalid, expired or revoked');
      // The session ends when its token does; the client reconnects with a fresh one.
      return { userId: principal.userId, tokenVersion: principal.tokenVersion, expiresAt: claims.exp * 1000 };
    },
    authorizeSubscribe(principal, destination) {
      if (destination === STOMP_PATHS.inbox) return;
      if (destination.startsWith(STOMP_PATHS.subscribePrefix)) {
        const roomId = destination.slice(STOMP_PATHS.subscribePrefix.length);
        if (service.isMember(principal.userId, roomId)) return;
        throw new StompError(MESSAGES.chatRoomForbidden, destination);
      }
      throw new StompError(MESSAGES.chatUnknownDestination, destination);
    },
    async onSend(session, destination, body) {
      const ids = parseSendDestination(destination);
      if (!ids) throw new StompError(MESSAGES.chatUnknownDestination, destination);
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        throw new StompError(MESSAGES.chatInvalidBody);
      }
      try {
        await service.send(session.principal!.userId, ids.buyerId, ids.sellerId, payload);
      } catch (err) {
        throw toStompError(err);
      }
    },
  };
}

/** Applies a chat event to the sessions of this process. */
export function deliverEvent(stomp: StompServer, event: ChatEvent): void {
  if (event.type === 'message') {
    const body = JSON.stringify(event.message);
    const id = String(event.message.id);
    const room = roomDestination(event.message.roomId);
    for (const userId of event.userIds) {
      stomp.deliverToUser(userId, room, body, id);
      stomp.deliverToUser(userId, STOMP_PATHS.inbox, body, id);
    }
  } else {
    stomp.closeUser(event.userId, MESSAGES.chatSessionRevoked, (p) => p.tokenVersion < event.tokenVersion);
  }
}

export function createStompServer(
  ctx: AppContext,
  hooks: StompHooks,
  session: Partial<SessionOptions> = {},
): StompServer {
  const origins = new Set([new URL(ctx.config.publicUrl).origin]);
  if (ctx.config.nodeEnv !== 'production') {
    // The Vite dev and preview servers proxy /ws and keep the page's Origin.
    for (const port of [5173, 4173]) {
      origins.add(`http://localhost:${port}`);
      origins.add(`http://127.0.0.1:${port}`);
    }
  }
  return new StompServer({
    hooks,
    allowedOrigins: [...origins],
    path: STOMP_PATHS.endpoint,
    session: { logger: ctx.logger, expiredMessage: MESSAGES.unauthorized, ...session },
  });
}
