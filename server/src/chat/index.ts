import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { photoUrl } from '../media/index.js';
import { MemoryBroker, RedisBroker, type ChatBroker, type ChatEvent } from './broker.js';
import { chatStompHooks, createStompServer, deliverEvent, type StompExtensions } from './realtime.js';
import { chatRoutes } from './routes.js';
import { ChatService, type SendGuard } from './service.js';
import type { StompServer, StompServerOptions } from './stomp/server.js';
import type { SessionOptions } from './stomp/session.js';
import { ChatPhotos } from './photos.js';
import { ChatPosts, deliverPostsLive } from './posts.js';
import type { MessageKinds } from './message-kinds.js';

export type { SendGuard } from './service.js';
export { StompAppError } from './stomp/errors.js';
export { MessageKinds, type AnyCardKind, type CardKind } from './message-kinds.js';
export { ChatPosts, roomTopic, type ChatPost, type PostTopic } from './posts.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * Another process revoked a user's older tokens (relayed over Redis by the chat broker). After
     * commit: this process's token cache forgets the user.
     */
    'user.tokensRevokedElsewhere': { userId: number; tokenVersion: number };
  }
}

export interface ChatModule {
  service: ChatService;
  stomp: StompServer;
  broker: ChatBroker;
  /** Other modules add subscribable user queues and SEND handlers here (notifications). */
  extensions: StompExtensions;
  /** How other modules put cards and system lines in a room, inside their own transaction. */
  posts: ChatPosts;
}

/** What chat is built with. */
export interface ChatDeps {
  /** The message kinds that embed another module's card (deals: offers, meet-ups). */
  messageKinds: MessageKinds;
  /** What a SEND must pass first (safety: blocks, suspension, the anti-scam guard). */
  sendGuard: SendGuard;
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatModule;
  }
}

export interface ChatOptions {
  /** STOMP session settings (tests shorten heart-beats). */
  session?: Partial<SessionOptions>;
  /** STOMP server limits (the benchmark raises the per-student session cap). */
  server?: Partial<Omit<StompServerOptions, 'hooks' | 'session'>>;
}

/**
 * Chat module entry: HTTP routes under /api/chats, the STOMP endpoint at /ws on the app's HTTP
 * server, and fan-out of stored messages to every process (Redis pub/sub when REDIS_URL is set).
 */
export async function registerChat(
  app: FastifyInstance,
  ctx: AppContext,
  deps: ChatDeps,
  options: ChatOptions = {},
): Promise<ChatModule> {
  const photos = new ChatPhotos(ctx);
  // Built in the order each needs the other: the service, the STOMP server that calls it, then the
  // broker that delivers into that server. The service publishes through the broker only once
  // requests flow, after this function has returned.
  const service = new ChatService(
    ctx,
    (event) => broker.publish(event),
    // A room's listing thumbnail: public, under the room's campus (the one in scope).
    (key) => photoUrl(ctx.photoStorage, requireCampusId(), key),
    photos,
    deps.messageKinds,
    deps.sendGuard,
  );
  const extensions: StompExtensions = { userDestinations: new Set(), sends: [] };
  const server = createStompServer(
    ctx,
    chatStompHooks(ctx, service, extensions),
    options.session,
    options.server,
  );
  const onEvent = (event: ChatEvent) => {
    // Revocations from other processes also drop this process's cached tokens at once.
    if (event.type === 'revoke') {
      void ctx.domainEvents.announceCommitted('user.tokensRevokedElsewhere', {
        userId: event.userId,
        tokenVersion: event.tokenVersion,
      });
    }
    deliverEvent(server, event);
  };
  const broker: ChatBroker = ctx.redis
    ? await RedisBroker.start(ctx.redis, `${ctx.config.keyPrefix}chat`, onEvent, ctx.logger)
    : new MemoryBroker(onEvent);
  deliverPostsLive(ctx.domainEvents, broker, ctx.logger);
  server.attach(app.server);

  // A password change or reset revokes older tokens: close those sessions on every process.
  ctx.domainEvents.afterCommit('user.tokensRevoked', ({ userId, tokenVersion }) => {
    broker.publish({ type: 'revoke', userId, tokenVersion }).catch((err: unknown) => {
      ctx.logger.error({ err }, 'chat: revoke broadcast failed');
    });
  });

  // Sockets keep the HTTP server from closing: end them before it does (graceful SIGTERM).
  app.addHook('preClose', async () => {
    await server.close();
  });
  app.addHook('onClose', async () => {
    await broker.close();
  });

  await app.register(chatRoutes(ctx, service, photos.upload));
  const posts = new ChatPosts(ctx.domainEvents);
  const chat: ChatModule = { service, stomp: server, broker, extensions, posts };
  app.decorate('chat', chat);
  return chat;
}
