import type { FastifyInstance } from 'fastify';
import type { ChatModule } from '../chat/index.js';
import type { AppContext } from '../context.js';
import type { DealsModule } from '../deals/index.js';
import type { ListingsModule } from '../listings/index.js';
import { BlockedSellers, BlocksService } from './blocks.js';
import { takeDaily } from './caps.js';
import { chatSendGuard } from './chat-guard.js';
import { ModerationService } from './moderation.js';
import { modRoutes } from './mod-routes.js';
import { ReportsService } from './reports.js';
import { safetyRoutes } from './routes.js';
import { assertAllowed } from './terms.js';

export { assertNotBlocked, isBlockedPair } from './blocks.js';
export { assertAllowed, findProhibited } from './terms.js';
export { takeDaily } from './caps.js';
export { scamFlags } from './scam.js';
export { checkLogin } from './status.js';

/**
 * Safety (features.md §C): reports, blocks, moderation, rules at the door, the anti-scam guard,
 * student status (`checkLogin`, which app.ts hands to accounts' login) and own data. Hooks into listings
 * (hidden sellers, prohibited terms, daily cap) and chat (SEND guard) without those modules
 * importing it; a moderator's removal ends the listing's deals through deals' `removal`.
 */
export async function registerSafety(
  app: FastifyInstance,
  ctx: AppContext,
  listings: ListingsModule,
  chat: ChatModule,
  deals: Pick<DealsModule, 'removal'>,
): Promise<void> {
  const blockedSellers = new BlockedSellers(ctx);
  const blocks = new BlocksService(ctx, blockedSellers);
  listings.service.hiddenSellersFor = (userId) => blockedSellers.of(userId);
  listings.service.hiddenSellersNow = (userId) => blockedSellers.cached(userId);
  listings.service.beforeWrite.push(async (principal, text, kind) => {
    assertAllowed(ctx.config.prohibitedRules, text.name, text.description);
    if (kind === 'created') await takeDaily(ctx, principal.userId, 'listing');
  });
  chat.service.sendGuard = chatSendGuard(ctx);
  const reports = new ReportsService(ctx, listings);
  const moderation = new ModerationService(ctx, listings, deals.removal);
  await app.register(safetyRoutes(ctx, { reports, blocks, listings }));
  await app.register(modRoutes(ctx, moderation));
}
