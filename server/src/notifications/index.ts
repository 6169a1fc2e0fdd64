import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { AppContext } from '../context.js';
import { registerChatMail } from './chat-mail.js';
import { registerDealNoticeJobs } from './deal-notices.js';
import { listenToFacts } from './listeners.js';
import { registerOfferMail } from './offer-mail.js';
import { Presence } from './presence.js';
import { loadVapidKeys } from './push.js';
import { notificationRoutes, publicNotificationRoutes } from './routes.js';
import { NotificationService } from './service.js';
import { unsubscribeRoutes } from './unsubscribe.js';

export { announceDealMessage } from './deal-notices.js';
export { notify, type NotifyInput } from './service.js';

export interface NotificationsModule {
  service: NotificationService;
  presence: Presence;
}

/**
 * Notifications (features.md §D): the centre (HTTP + live STOMP), e-mail with one-click
 * unsubscribe, web push, quiet hours, unread-chat e-mail, chat presence (typing, Seen).
 * Other features announce facts (events.ts); this module listens (listeners.ts, chat-mail.ts,
 * presence.ts) and writes each notice in the announcing transaction.
 */
export async function registerNotifications(
  app: FastifyInstance,
  ctx: AppContext,
  chat: ChatModule,
): Promise<NotificationsModule> {
  const presence = new Presence(ctx, chat);
  presence.start();
  const service = new NotificationService(ctx, presence, loadVapidKeys(ctx));
  service.registerJobs();
  registerDealNoticeJobs(ctx);
  registerChatMail(ctx, service, presence);
  registerOfferMail(ctx, service);
  listenToFacts(ctx);
  app.addHook('preClose', async () => {
    await presence.stop();
  });
  await app.register(unsubscribeRoutes(ctx));
  await app.register(publicNotificationRoutes(service));
  await app.register(notificationRoutes(ctx, service));
  return { service, presence };
}
