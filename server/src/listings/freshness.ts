import { FRESHNESS_MESSAGES, MESSAGES, listingResponse, type Listing } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { conflict, notFound } from '../http/errors.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { doc } from '../http/openapi.js';
import { idParams, pathId } from '../http/params.js';
import { filePeriodJobs, periodEnd, registerFreshnessJobs, startFreshPeriods } from './freshness-jobs.js';
import type { Personaliser } from './personalise.js';
import type { ListingsService } from './service.js';

/**
 * Freshness (features.md §H): a listing stays listed LISTING_DAYS after posting or renewal. This
 * file holds renewal (POST /listing/{id}/renew) and the wiring; the period's timers are in
 * freshness-jobs.ts, and reads leave expired listings out through store.ts `listedAt`.
 */
export class FreshnessService {
  constructor(
    private readonly ctx: AppContext,
    private readonly listings: ListingsService,
  ) {}

  /**
   * A fresh period from now for the seller's own listing: 404 for an unknown id or another
   * campus's, 403 for another seller's, 409 for a sold or removed one. Renewing before the end is
   * allowed (the period starts again from now); the index and caches follow before this answers.
   */
  async renew(principal: Principal, id: number): Promise<Listing> {
    const current = await this.listings.ownedRow(principal, id);
    if (current.moderation === 'REMOVED') throw conflict(FRESHNESS_MESSAGES.renewRemoved);
    if (current.is_sold === 1) throw conflict(FRESHNESS_MESSAGES.renewSold);
    const now = this.ctx.clock();
    const events = this.ctx.domainEvents;
    const renewed = await events.transaction(async (trx) => {
      const row = await trx
        .updateTable('listings')
        .set({ expires_at: periodEnd(this.ctx, now), updated_at: now })
        .where('id', '=', id)
        .where('campus_id', '=', principal.campusId)
        .where('seller_id', '=', principal.userId)
        // Sold meanwhile (a hand-off in another request): refused below, like a sold one.
        .where('is_sold', '=', 0)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await filePeriodJobs(
        this.ctx,
        trx,
        row,
        current.expires_at === null ? null : Number(current.expires_at),
      );
      await events.announce(trx, 'listing.changed', { row });
      return row;
    });
    if (!renewed) {
      const again = await this.listings.ownedRow(principal, id).catch(() => undefined);
      if (!again) throw notFound(MESSAGES.listingNotFound);
      throw conflict(FRESHNESS_MESSAGES.renewSold);
    }
    return this.listings.get(principal.campusId, id);
  }
}

/**
 * Wires freshness into the listings module: a new listing files its period's jobs in its own
 * transaction, listings from before the upgrade get their period, and the renew route.
 */
export async function registerFreshness(
  app: FastifyInstance,
  ctx: AppContext,
  listings: ListingsService,
  personaliser: Personaliser,
): Promise<void> {
  registerFreshnessJobs(ctx);
  ctx.domainEvents.inTransaction('listing.written', async (trx, { row, change }) => {
    if (change === 'created') await filePeriodJobs(ctx, trx, row);
  });
  const started = await startFreshPeriods(ctx);
  if (started > 0) ctx.logger.info(`Freshness: ${started} existing listings got a listed period from now`);

  const service = new FreshnessService(ctx, listings);
  await app.register(async (scope) => {
    scope.addHook('preHandler', requireAuth(ctx));
    scope.post(
      '/listing/:id/renew',
      doc({
        tag: 'listings',
        auth: true,
        summary: `Renew a listing (seller only): listed again for LISTING_DAYS from now; not when sold`,
        params: idParams,
        response: listingResponse,
        errors: [400, 403, 404, 409],
      }),
      async (request) => {
        const principal = principalOf(request);
        const id = pathId(request, MESSAGES.listingIdInvalid);
        return personaliser.listing(await service.renew(principal, id), principal);
      },
    );
  });
}
