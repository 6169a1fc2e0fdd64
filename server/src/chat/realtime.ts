import type { IncomingMessage } from 'node:http';
import {
  CHAT_LIMIT_MESSAGES,
  CHAT_LIMITS,
  ERROR_CODES,
  MESSAGES,
  STOMP_PATHS,
  isDbId,
} from '@campus/contract';
import { findTokenState } from '../accounts/index.js';
import { campusOrigins } from '../campuses/index.js';
import type { AppContext } from '../context.js';
import { inCampus } from '../db/campus-scope.js';
import { HttpError } from '../http/errors.js';
import type { ChatEvent } from './broker.js';
import type { ChatService } from './service.js';
import { StompServer } from './stomp/server.js';
import type { StompServerOptions } from './stomp/server.js';
import {
  CLOSE,
  StompAppError,
  StompError,
  bearerToken,
  type SessionOptions,
  type StompHooks,
  type StompSession,
} from './stomp/session.js';
import { TokenBucket } from './token-bucket.js';

/** /app/chat.send/{buyerId}/{sellerId} -> the two ids, or null. */
export function parseSendDestination(destination: string): { buyerId: number; sellerId: number } | null {
  if (!destination.startsWith(STOMP_PATHS.sendPrefix)) return null;
  const m = /^(\d{1,15})\/(\d{1,15})$/.exec(destination.slice(STOMP_PATHS.sendPrefix.length));
  return m ? { buyerId: Number(m[1]), sellerId: Number(m[2]) } : null;
}

export function roomDestination(roomId: string): string {
  return STOMP_PATHS.subscribePrefix + roomId;
}

/**
 * Service refusals (HttpError 4xx: not a member, blank, too long, unknown listing, bad photo,
 * blocked…) are application errors: a MESSAGE on /user/queue/errors, the session stays open.
 */
function toAppError(err: unknown): unknown {
  if (err instanceof HttpError && err.statusCode < 500) return new StompAppError(err.message, err.code);
  return err;
}

/**
 * What other modules add to the one STOMP endpoint (notifications, presence): destinations any
 * authenticated student may subscribe to (always their own queue), and SEND handlers by prefix.
 */
export interface StompExtensions {
  userDestinations: Set<string>;
  sends: Array<{
    prefix: string;
    handle(session: StompSession, destination: string, body: string): Promise<void>;
  }>;
}

/** The STOMP surface of chat: authentication, subscription rules, SEND -> service. */
export function chatStompHooks(
  ctx: AppContext,
  service: ChatService,
  extensions: StompExtensions = { userDestinations: new Set(), sends: [] },
): StompHooks {
  // SEND rate per student: 5 per second, bursts of 20 (per process).
  const sends = new TokenBucket(CHAT_LIMITS.sendBurst, CHAT_LIMITS.sendPerSecond, ctx.clock);
  return {
    // Every SEND (chat, typing, any extension; held in a transaction or not) as it arrives.
    admitSend(session) {
      if (!sends.take(session.principal!.userId)) {
        throw new StompAppError(CHAT_LIMIT_MESSAGES.sendRateLimited, ERROR_CODES.rateLimited);
      }
    },
    async authenticate(headers) {
      const token = bearerToken(headers);
      if (!token)
        throw new StompError(MESSAGES.unauthorized, 'CONNECT needs an Authorization: Bearer <token> header');
      const principal = await ctx.authenticate(token);
      const claims = principal ? await ctx.tokens.verify(token) : null;
      if (!principal || !claims)
        throw new StompError(MESSAGES.unauthorized, 'The token is invalid, expired or revoked');
      // The session ends when its token does; the client reconnects with a fresh one.
      return {
        userId: principal.userId,
        tokenVersion: principal.tokenVersion,
        campusId: principal.campusId,
        expiresAt: claims.exp * 1000,
      };
    },
    // Every frame of the session is work of the student's campus (features.md §E), as a request
    // after the auth hook is: what it reads and writes is that campus's, on both databases.
    scope(principal, work) {
      return inCampus(principal.campusId, work);
    },
    async revalidate(principal) {
      // From the database, not the token cache: the session is registered by now, so a password
      // change either committed before this read (seen here) or will find and close it.
      const state = await findTokenState(ctx.db.kysely, principal.userId);
      if (!state || state.token_version !== principal.tokenVersion) {
        throw new StompError(MESSAGES.chatSessionRevoked, undefined, CLOSE.policy);
      }
    },
    async authorizeSubscribe(principal, destination) {
      if (
        destination === STOMP_PATHS.inbox ||
        destination === STOMP_PATHS.errors ||
        destination === STOMP_PATHS.resync
      )
        return;
      if (extensions.userDestinations.has(destination)) return;
      if (destination.startsWith(STOMP_PATHS.subscribePrefix)) {
        const roomId = destination.slice(STOMP_PATHS.subscribePrefix.length);
        // A room with a student of another campus is refused exactly like a room one is not in.
        if (await service.maySubscribe(principal.userId, roomId)) return;
        throw new StompError(MESSAGES.chatRoomForbidden, destination);
      }
      throw new StompError(MESSAGES.chatUnknownDestination, destination);
    },
    async onSend(session, destination, body) {
      const extension = extensions.sends.find((e) => destination.startsWith(e.prefix));
      if (extension) {
        try {
          return await extension.handle(session, destination, body);
        } catch (err) {
          throw toAppError(err);
        }
      }
      const ids = parseSendDestination(destination);
      if (!ids) throw new StompError(MESSAGES.chatUnknownDestination, destination);
      // Ids beyond the database's integer range: refused before any query, alike on both dialects.
      if (!isDbId(ids.buyerId) || !isDbId(ids.sellerId)) {
        throw new StompAppError(CHAT_LIMIT_MESSAGES.numberOutOfRange, ERROR_CODES.validation);
      }
      const userId = session.principal!.userId;
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        throw new StompAppError(MESSAGES.chatInvalidBody, ERROR_CODES.validation);
      }
      try {
        await service.send(userId, ids.buyerId, ids.sellerId, payload);
      } catch (err) {
        throw toAppError(err);
      }
    },
  };
}

const RESYNC_BODY = JSON.stringify({ type: 'resync' });

/** Applies a chat event to the sessions of this process. */
export function deliverEvent(stomp: StompServer, event: ChatEvent): void {
  if (event.type === 'message') {
    const body = JSON.stringify(event.message);
    // Anti-scam flags are for the recipient only (safety): the sender's copy goes without them.
    const { flags: _flags, ...unflagged } = event.message;
    const senderBody = event.message.flags ? JSON.stringify(unflagged) : body;
    const id = String(event.message.id);
    const room = roomDestination(event.message.roomId);
    for (const userId of event.userIds) {
      const forUser = userId === event.message.senderId ? senderBody : body;
      stomp.deliverToUser(userId, room, forUser, id);
      stomp.deliverToUser(userId, STOMP_PATHS.inbox, forUser, id);
    }
  } else if (event.type === 'user') {
    for (const userId of event.userIds) stomp.deliverToUser(userId, event.destination, event.body, event.id);
  } else if (event.type === 'resync') {
    // Every connected student here: live frames may have been missed, fetch with ?after= again.
    const id = `resync-${Date.now()}`;
    for (const userId of stomp.connectedUsers()) {
      stomp.deliverToUser(userId, STOMP_PATHS.resync, RESYNC_BODY, id);
    }
  } else {
    stomp.closeUser(event.userId, MESSAGES.chatSessionRevoked, (p) => p.tokenVersion < event.tokenVersion);
  }
}

/**
 * The client's address behind a trusted reverse proxy, as Fastify's request.ip has it with
 * `trustProxy: true`: the first X-Forwarded-For entry (deploy/nginx sets it to the address nginx
 * saw), else the socket's peer. Without it every student behind nginx would share one pending-socket
 * allowance, and a reconnect wave after a restart would be refused with 429.
 */
export function forwardedClientAddress(req: IncomingMessage): string {
  const header = req.headers['x-forwarded-for'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return first || (req.socket.remoteAddress ?? 'unknown');
}

export function createStompServer(
  ctx: AppContext,
  hooks: StompHooks,
  session: Partial<SessionOptions> = {},
  server: Partial<Omit<StompServerOptions, 'hooks' | 'session'>> = {},
): StompServer {
  const origins = new Set(campusOrigins(ctx.config.publicUrl, ctx.campuses.all()));
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
    maxSessionsPerUser: CHAT_LIMITS.maxSessionsPerStudent,
    tooManySessionsMessage: CHAT_LIMIT_MESSAGES.tooManySessions,
    maxPendingPerIp: CHAT_LIMITS.maxPendingSocketsPerIp,
    ...(ctx.config.trustProxy ? { clientAddress: forwardedClientAddress } : {}),
    ...server,
    session: {
      logger: ctx.logger,
      expiredMessage: MESSAGES.unauthorized,
      connectTimeoutMs: CHAT_LIMITS.connectDeadlineMs,
      idleTimeoutMs: CHAT_LIMITS.idleTimeoutMs,
      idleMessage: CHAT_LIMIT_MESSAGES.idleClosed,
      errorsDestination: STOMP_PATHS.errors,
      transactions: {
        maxOpen: CHAT_LIMITS.maxTransactionsPerSession,
        maxFrames: CHAT_LIMITS.maxTransactionFrames,
        maxBytes: CHAT_LIMITS.maxTransactionBytes,
        tooManyMessage: CHAT_LIMIT_MESSAGES.tooManyTransactions,
        tooLargeMessage: CHAT_LIMIT_MESSAGES.transactionTooLarge,
      },
      ...session,
    },
  });
}
