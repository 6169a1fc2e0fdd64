import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { AppContext } from '../context.js';
import type { ListingsModule } from '../listings/index.js';
import { registerChatMail } from './chat-mail.js';
import { registerDealNoticeJobs } from './deal-notices.js';
import { registerOfferMail } from './offer-mail.js';
import { Presence } from './presence.js';
import { announcePriceDrop } from './producers.js';
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
 * Other features call `notify(ctx, trx, …)` inside their transaction.
 */
export async function registerNotifications(
  app: FastifyInstance,
  ctx: AppContext,
  chat: ChatModule,
  listings: ListingsModule,
): Promise<NotificationsModule> {
  const presence = new Presence(ctx, chat);
  presence.start();
  const service = new NotificationService(ctx, presence, loadVapidKeys(ctx));
  service.registerJobs();
  registerDealNoticeJobs(ctx);
  registerChatMail(ctx, chat, service, presence);
  registerOfferMail(ctx, service);
  listings.service.onPriceDrop.push((trx, listing, oldCents) =>
    announcePriceDrop(ctx, trx, listing, oldCents),
  );
  app.addHook('preClose', async () => {
    await presence.stop();
  });
  await app.register(unsubscribeRoutes(ctx));
  await app.register(publicNotificationRoutes(service));
  await app.register(notificationRoutes(ctx, service));
  return { service, presence };
}
