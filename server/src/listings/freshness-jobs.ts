import { FRESHNESS_LIMITS } from '@campus/contract';
import { acrossCampuses, requireCampusId } from '../db/campus-scope.js';
import type { AppContext } from '../context.js';
import type { Trx } from '../events.js';
import type { ListingRow } from './store.js';

/**
 * The timers of a listing's listed period (features.md §H), as durable keyed jobs filed in the
 * transaction that sets the period (posting, renewal, the upgrade's start-up pass):
 * - `listing.expiring` at three days before the end: the seller hears LISTING_EXPIRING;
 * - `listing.expired` at the end: the row's `updated_at` moves, so every process's search index
 *   and hot cache drop the listing (search-docs-store.ts `lapsed`; reads are filtered by the clock
 *   meanwhile).
 * Each job carries the end it was filed for and does nothing when the row has another one now
 * (renewed since), is sold, removed or gone: a late or repeated run is harmless, and the notice's
 * dedupe key makes it once per period even when a crashed process's job runs again.
 */
export const FRESHNESS_JOBS = {
  expiring: 'listing.expiring',
  expired: 'listing.expired',
} as const;

const DAY_MS = 86_400_000;

interface PeriodPayload {
  listingId: number;
  expiresAt: number;
}

const keyOf = (type: string, listingId: number, expiresAt: number) => `${type}:${listingId}:${expiresAt}`;

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A listing's period ends in `daysLeft` days and it is still for sale. In the transaction:
     * notifications tells the seller (LISTING_EXPIRING), once per period.
     */
    'listing.expiring': { row: ListingRow; daysLeft: number };
  }
}

/** The period a listing posted or renewed at `now` gets. */
export function periodEnd(ctx: AppContext, now: number): number {
  return now + ctx.config.listingDays * DAY_MS;
}

/**
 * Files the two jobs of the row's current period, and drops those of the period it replaces (they
 * would find the period changed and do nothing; dropping them keeps the queue short).
 */
export async function filePeriodJobs(
  ctx: AppContext,
  trx: Trx,
  row: Pick<ListingRow, 'id' | 'campus_id' | 'expires_at'>,
  previousEnd?: number | null,
): Promise<void> {
  if (row.expires_at === null) return;
  const campusId = Number(row.campus_id);
  const expiresAt = Number(row.expires_at);
  if (previousEnd !== undefined && previousEnd !== null && previousEnd !== expiresAt) {
    for (const type of Object.values(FRESHNESS_JOBS)) {
      await ctx.jobs.cancel(trx, keyOf(type, row.id, Number(previousEnd)), { campusId });
    }
  }
  const payload: PeriodPayload = { listingId: row.id, expiresAt };
  const noticeAt = expiresAt - FRESHNESS_LIMITS.expiringNoticeDays * DAY_MS;
  await ctx.jobs.enqueue(trx, FRESHNESS_JOBS.expiring, payload, {
    runAt: noticeAt,
    key: keyOf(FRESHNESS_JOBS.expiring, row.id, expiresAt),
    campusId,
  });
  await ctx.jobs.enqueue(trx, FRESHNESS_JOBS.expired, payload, {
    runAt: expiresAt,
    key: keyOf(FRESHNESS_JOBS.expired, row.id, expiresAt),
    campusId,
  });
}

/** The row when it is still in the period `expiresAt` and for sale, else undefined. */
async function currentRow(trx: Trx, p: PeriodPayload): Promise<ListingRow | undefined> {
  const row = await trx
    .selectFrom('listings')
    .selectAll()
    .where('campus_id', '=', requireCampusId())
    .where('id', '=', p.listingId)
    .executeTakeFirst();
  if (!row || row.expires_at === null || Number(row.expires_at) !== p.expiresAt) return undefined;
  if (row.is_sold === 1 || row.moderation === 'REMOVED') return undefined;
  return row;
}

export function registerFreshnessJobs(ctx: AppContext): void {
  const events = ctx.domainEvents;
  ctx.jobs.register<PeriodPayload>(FRESHNESS_JOBS.expiring, (p) =>
    events.transaction(async (trx) => {
      const row = await currentRow(trx, p);
      const left = p.expiresAt - ctx.clock();
      // Past the end already (the worker was down for days): My Listings shows EXPIRED instead.
      if (!row || left <= 0) return;
      await events.announce(trx, 'listing.expiring', {
        row,
        daysLeft: Math.max(1, Math.ceil(left / DAY_MS)),
      });
    }),
  );
  ctx.jobs.register<PeriodPayload>(FRESHNESS_JOBS.expired, (p) =>
    events.transaction(async (trx) => {
      const row = await currentRow(trx, p);
      const now = ctx.clock();
      if (!row || p.expiresAt > now) return;
      const moved = await trx
        .updateTable('listings')
        .set({ updated_at: Math.max(now, Number(row.updated_at)) })
        .where('id', '=', row.id)
        .where('expires_at', '=', p.expiresAt)
        .returningAll()
        .executeTakeFirst();
      if (moved) await events.announce(trx, 'listing.changed', { row: moved });
    }),
  );
}

/** Listings the start-up pass gives a period per transaction. */
const START_BATCH = 500;

/**
 * Listings from before the upgrade (expires_at NULL) get a fresh period from now, with its jobs
 * (migration 017 says why this is not the migration's work). Several processes starting at once
 * are safe: each row is claimed by one UPDATE … WHERE expires_at IS NULL, and the jobs are keyed.
 * Returns how many listings got a period.
 */
export async function startFreshPeriods(ctx: AppContext): Promise<number> {
  const expiresAt = periodEnd(ctx, ctx.clock());
  let total = 0;
  for (;;) {
    const done = await acrossCampuses(() =>
      ctx.domainEvents.transaction(async (trx) => {
        const ids = await trx
          .selectFrom('listings')
          .select('id')
          .where('expires_at', 'is', null)
          .orderBy('id')
          .limit(START_BATCH)
          .execute();
        if (ids.length === 0) return undefined;
        const rows = await trx
          .updateTable('listings')
          .set({ expires_at: expiresAt })
          .where(
            'id',
            'in',
            ids.map((r) => r.id),
          )
          .where('expires_at', 'is', null)
          .returning(['id', 'campus_id', 'expires_at'])
          .execute();
        for (const row of rows) await filePeriodJobs(ctx, trx, row);
        // Fewer than selected: another process took some meanwhile; the next look skips them.
        return rows.length;
      }),
    );
    if (done === undefined) return total;
    total += done;
  }
}
