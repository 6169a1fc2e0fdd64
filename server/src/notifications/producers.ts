import { FRESHNESS_MESSAGES, formatCents, NOTIFICATION_LIMITS } from '@campus/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import type { ListingRow } from '../listings/index.js';
import { notify } from './service.js';

type Executor = Kysely<Database>;

const listingLink = (id: number) => `/single_listing/${id}`;

/** Selling recorded a new saved-search match (`savedSearch.matched`, in its transaction). */
export async function notifySavedSearchMatch(
  ctx: AppContext,
  trx: Executor,
  userId: number,
  listing: ListingRow,
  query: string,
): Promise<void> {
  const what = query.trim() ? `“${query.trim().slice(0, 60)}”` : 'your saved search';
  await notify(ctx, trx, {
    userId,
    type: 'SAVED_SEARCH_MATCH',
    title: `New listing for ${what}`,
    body: `${listing.name} — ${formatCents(listing.price_cents)}`,
    link: listingLink(listing.id),
    subjectId: listing.id,
  });
}

/** Selling recorded a new wanted-post match (`wanted.matched`, in its transaction). */
export async function notifyWantedMatch(
  ctx: AppContext,
  trx: Executor,
  userId: number,
  listing: ListingRow,
  wantedTitle: string,
): Promise<void> {
  await notify(ctx, trx, {
    userId,
    type: 'WANTED_MATCH',
    title: `Someone is selling what you want: “${wantedTitle.slice(0, 60)}”`,
    body: `${listing.name} — ${formatCents(listing.price_cents)}`,
    link: listingLink(listing.id),
    subjectId: listing.id,
  });
}

/**
 * PRICE_DROP to everyone who saved the listing and has had none for it in the last 24 h, only when the price is at least 10 % below the
 * last announced price: replaying the listing's recorded drops, each qualifying drop becomes the
 * new reference, and a price raised meanwhile counts from the raised price. So five 3 % cuts add up
 * to one notification, and the rule needs no state beyond the drops selling records. Runs inside
 * the edit's transaction (the new drop is already recorded).
 */
export async function announcePriceDrop(
  ctx: AppContext,
  trx: Executor,
  listing: ListingRow,
  oldCents: number,
): Promise<void> {
  // The edit's campus: the listing's savers are its students (notify() checks each one too).
  const campusId = requireCampusId();
  const drops = await trx
    .selectFrom('listing_price_drops')
    .select(['old_price_cents', 'new_price_cents'])
    .where('campus_id', '=', campusId)
    .where('listing_id', '=', listing.id)
    .orderBy('id')
    .execute();
  if (drops.length === 0) drops.push({ old_price_cents: oldCents, new_price_cents: listing.price_cents });
  let reference = 0;
  let qualifies = false;
  let baseline = 0;
  for (const d of drops) {
    reference = Math.max(reference, d.old_price_cents);
    qualifies = (reference - d.new_price_cents) * 100 >= reference * NOTIFICATION_LIMITS.priceDropPercent;
    baseline = reference;
    if (qualifies) reference = d.new_price_cents;
  }
  if (!qualifies) return;
  // A seller raising and dropping the price again would otherwise notify every saver each time.
  // Concurrent edits of one listing queue on its row (the edit's UPDATE), so this check holds.
  const since = ctx.clock() - NOTIFICATION_LIMITS.priceDropGapHours * 3_600_000;
  const savers = await trx
    .selectFrom('listing_saves')
    .select('user_id')
    .where('listing_saves.campus_id', '=', campusId)
    .where('listing_id', '=', listing.id)
    .where('user_id', '<>', listing.seller_id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications')
            .select('notifications.id')
            .where('notifications.campus_id', '=', campusId)
            .whereRef('notifications.user_id', '=', 'listing_saves.user_id')
            .where('notifications.type', '=', 'PRICE_DROP')
            .where('notifications.subject_id', '=', listing.id)
            .where('notifications.created_at', '>', since),
        ),
      ),
    )
    .execute();
  const percent = Math.floor(((baseline - listing.price_cents) * 100) / baseline);
  for (const { user_id } of savers) {
    await notify(ctx, trx, {
      userId: user_id,
      type: 'PRICE_DROP',
      title: `Price drop: ${listing.name}`,
      body: `Now ${formatCents(listing.price_cents)} (was ${formatCents(baseline)}, ${percent} % less).`,
      link: listingLink(listing.id),
      subjectId: listing.id,
    });
  }
}

/**
 * LISTING_EXPIRING to the seller (features.md §H), from the period's job (listings/freshness-jobs.ts).
 * Once per listed period: a job run again after a crash finds the dedupe key taken.
 */
export async function notifyListingExpiring(
  ctx: AppContext,
  trx: Executor,
  listing: ListingRow,
  daysLeft: number,
): Promise<void> {
  await notify(ctx, trx, {
    userId: listing.seller_id,
    type: 'LISTING_EXPIRING',
    title: FRESHNESS_MESSAGES.expiringTitle(listing.name, daysLeft),
    body: FRESHNESS_MESSAGES.expiringBody,
    link: listingLink(listing.id),
    subjectId: listing.id,
    dedupeKey: `listing-expiring:${listing.id}:${Number(listing.expires_at)}`,
  });
}
