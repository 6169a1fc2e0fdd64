import type { FastifyInstance } from 'fastify';
import type { SendGuard } from '../chat/index.js';
import type { AppContext, Principal } from '../context.js';
import type { DealsModule } from '../deals/index.js';
import type { ListingsModule, ListingWrite } from '../listings/index.js';
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
 * Safety's checks that other modules run before they write (vetoes, not events), built before
 * those modules and passed to them at construction (app.ts).
 */
export interface SafetyGuards {
  /** The students each viewer blocked (listings hides their listings; the block routes update it). */
  blockedSellers: BlockedSellers;
  /**
   * Prohibited terms in a listing's text (the poster's campus's rules), and the daily cap on new
   * listings (per student; the cap is the deployment's). Throws to refuse.
   */
  checkListingWrite(
    principal: Principal,
    text: { name: string; description: string },
    kind: ListingWrite,
  ): Promise<void>;
  /** A chat SEND before it is stored: blocks, the new-conversation cap, anti-scam flags. */
  chatSend: SendGuard;
}

export function safetyGuards(ctx: AppContext): SafetyGuards {
  return {
    blockedSellers: new BlockedSellers(ctx),
    async checkListingWrite(principal, text, kind) {
      // The poster's campus's rules (defaults plus its own), whichever scope the caller runs in.
      assertAllowed(ctx.campuses.byId(principal.campusId).prohibitedRules, text.name, text.description);
      if (kind === 'created') await takeDaily(ctx, principal.userId, 'listing');
    },
    chatSend: chatSendGuard(ctx),
  };
}

/**
 * Safety (features.md §C): reports, blocks, moderation, rules at the door (its guards, above), the
 * anti-scam guard, student status (`checkLogin`, which app.ts hands to accounts' login) and own data. A
 * moderator's removal ends the listing's deals through deals' `removal`.
 */
export async function registerSafety(
  app: FastifyInstance,
  ctx: AppContext,
  guards: SafetyGuards,
  listings: ListingsModule,
  deals: Pick<DealsModule, 'removal'>,
): Promise<void> {
  const blocks = new BlocksService(ctx, guards.blockedSellers);
  const reports = new ReportsService(ctx, listings);
  const moderation = new ModerationService(ctx, deals.removal);
  await app.register(safetyRoutes(ctx, { reports, blocks, listings }));
  await app.register(modRoutes(ctx, moderation));
}
