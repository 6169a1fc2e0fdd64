import type { AppContext } from '../context.js';
import { inCampus, requireCampusId } from '../db/campus-scope.js';
import type { JobExecutor } from '../jobs/index.js';
import { findListingRow, queryMatches, type ListingRow } from '../listings/index.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A listing matched a student's saved search for the first time (the match row is written in
     * the same transaction). In the transaction: notifications tells the student.
     */
    'savedSearch.matched': { userId: number; listing: ListingRow; query: string };
    /** The same for an open wanted post. In the transaction: notifications tells its author. */
    'wanted.matched': { userId: number; listing: ListingRow; wantedTitle: string };
  }
}

export const SELLING_JOBS = { match: 'selling.match' } as const;

/**
 * Enqueued in the listing's own create/edit transaction, so the job exists exactly when the change
 * committed: a crash right after the commit, or a failed match, is retried by the job queue instead
 * of leaving savers untold. No key: an edit made while a match is running must be matched again.
 * The job is the listing's campus's, whoever wrote it: it runs in that campus and matches only
 * that campus's saved searches and wanted posts.
 */
export function enqueueMatch(ctx: AppContext, trx: JobExecutor, row: ListingRow): Promise<void> {
  return inCampus(Number(row.campus_id), () =>
    ctx.jobs.enqueue(trx, SELLING_JOBS.match, { listingId: row.id }),
  );
}

/**
 * The job: matches the listing as it is when the job runs (an edit since is included), and not at
 * all once it is sold, deleted or hidden by moderation (out of search). Safe to run again: the
 * match tables' keys allow one notice per saver per listing.
 */
export function registerMatchJob(ctx: AppContext): void {
  ctx.jobs.register<{ listingId: number }>(SELLING_JOBS.match, async ({ listingId }) => {
    // The job runs in the campus it was filed under: the listing's (enqueueMatch).
    const row = await findListingRow(ctx.db.kysely, requireCampusId(), listingId);
    if (!row || row.moderation !== null) return;
    await matchListing(ctx, row);
  });
}

/**
 * Matches a new or edited listing against every saved search and open wanted post of its campus
 * (features.md §E: a student of another campus is never told of it), by the rules
 * of the search itself (filters, then the Fuse match or an equal course code / ISBN), and
 * records one row per saver per listing in saved_search_matches / wanted_matches. The primary
 * key (user_id, listing_id) makes "never twice" hold across edits and processes; the
 * notifications module reads these tables (docs/architecture.md, "Selling: match records").
 */
export async function matchListing(ctx: AppContext, row: ListingRow): Promise<void> {
  if (row.is_sold !== 0) return;
  const db = ctx.db.kysely;
  const now = ctx.clock();
  const campusId = Number(row.campus_id);
  const listing = {
    name: row.name,
    description: row.description,
    category: row.category,
    courseCode: row.course_code,
    isbn: row.isbn,
  };

  // Saved searches: the price and course filters in SQL, the rest here.
  let searches = db
    .selectFrom('saved_searches')
    .selectAll()
    .where('campus_id', '=', campusId)
    .where('user_id', '<>', row.seller_id)
    .where((eb) => eb.or([eb('price_min_cents', 'is', null), eb('price_min_cents', '<=', row.price_cents)]))
    .where((eb) => eb.or([eb('price_max_cents', 'is', null), eb('price_max_cents', '>=', row.price_cents)]));
  searches =
    row.course_code === null
      ? searches.where('course_code', 'is', null)
      : searches.where((eb) =>
          eb.or([eb('course_code', 'is', null), eb('course_code', '=', row.course_code)]),
        );
  const savedMatches = new Map<number, { id: number; query: string }>();
  for (const s of await searches.orderBy('id').execute()) {
    if (savedMatches.has(s.user_id)) continue;
    if (s.categories !== '' && !s.categories.split(',').includes(row.category)) continue;
    if (s.conditions !== '' && (row.condition === null || !s.conditions.split(',').includes(row.condition)))
      continue;
    if (!queryMatches(s.query, listing)) continue;
    savedMatches.set(s.user_id, { id: s.id, query: s.query });
  }
  const events = ctx.domainEvents;
  for (const [userId, search] of savedMatches) {
    // The notification is created with the record, so only the first match ever notifies.
    await events.transaction(async (trx) => {
      const inserted = await trx
        .insertInto('saved_search_matches')
        .values({ user_id: userId, listing_id: row.id, saved_search_id: search.id, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
        await events.announce(trx, 'savedSearch.matched', { userId, listing: row, query: search.query });
    });
  }

  // Open wanted posts: the title is the query; category, maxPrice and courseCode the filters.
  let wanted = db
    .selectFrom('wanted_posts')
    .selectAll()
    .where('campus_id', '=', campusId)
    .where('user_id', '<>', row.seller_id)
    .where('expires_at', '>', now)
    .where('category', '=', row.category)
    .where((eb) => eb.or([eb('max_price_cents', 'is', null), eb('max_price_cents', '>=', row.price_cents)]));
  wanted =
    row.course_code === null
      ? wanted.where('course_code', 'is', null)
      : wanted.where((eb) => eb.or([eb('course_code', 'is', null), eb('course_code', '=', row.course_code)]));
  const wantedMatches = new Map<number, { id: number; title: string }>();
  for (const w of await wanted.orderBy('id').execute()) {
    if (wantedMatches.has(w.user_id)) continue;
    if (!queryMatches(w.title, listing)) continue;
    wantedMatches.set(w.user_id, { id: w.id, title: w.title });
  }
  for (const [userId, wanted] of wantedMatches) {
    await events.transaction(async (trx) => {
      const inserted = await trx
        .insertInto('wanted_matches')
        .values({ user_id: userId, listing_id: row.id, wanted_id: wanted.id, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
        await events.announce(trx, 'wanted.matched', { userId, listing: row, wantedTitle: wanted.title });
    });
  }
}
