/**
 * Pages of listings read from the database, newest first or by price (the listings module's
 * browse: categories, filters, a seller's own page). Search lives in search/.
 */
import type { Category } from '@campus/contract';
import { sql, type Transaction } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { listOrder, mergeOrdered } from './list-order.js';
import type { SearchFilters } from './search/search-index.js';
import { listedAt, onMarket, withSeller, type Executor, type ListingWithSeller } from './store.js';

/** Browse orders: newest (id desc), price_asc (price, id ascending), price_desc (both descending). */
export type BrowseSort = 'newest' | 'price_asc' | 'price_desc';

/** A browse: the index's filters, an order, and where the page starts. */
export interface BrowseQuery extends SearchFilters {
  /**
   * The viewer's campus (features.md §E): only its listings. Every browse of the listings module
   * names it; a read by seller (a profile) is limited already by the seller's campus.
   */
  campusId?: number;
  sort?: BrowseSort;
  /** Keyset for the price sorts: listings after (price, id) in the sort's order. */
  afterPrice?: { price: number; id: number };
  sellerId?: number;
  /** Browse shows unsold, unmoderated listings only; a seller's own page shows everything. */
  includeSold: boolean;
  /** Sellers the viewer blocked (safety): their listings are left out. */
  excludeSellers?: readonly number[];
  /** Keyset: only listings with a smaller id (newest first). */
  beforeId?: number;
  /** Only listings with a larger id (newest first): the window a walk reads (newestByWalking). */
  aboveId?: number;
  /**
   * Freshness (features.md §H): with `includeSold` false, listings whose period ended at or before
   * this time are left out. Every browse of the listings module passes the app's clock.
   */
  now?: number;
  limit: number;
}

/** Listings a walk reads at most (the newest of its category or campus) before the planner takes over. */
const WALK_WINDOW = 1000;

/**
 * A page of listings. `dialect` picks the plan where the two databases' planners differ
 * (browseEachCategory, newestByWalking); `walkWindow` is the latter's window (tests make it small).
 */
export function browse(
  db: Executor,
  q: BrowseQuery,
  dialect: Dialect,
  walkWindow = WALK_WINDOW,
): Promise<ListingWithSeller[]> {
  const sort = q.sort ?? 'newest';
  if (dialect === 'postgres' && sort === 'newest' && walksInOrder(q))
    return newestByWalking(db, q, walkWindow);
  if (q.categories && q.categories.length > 1) return browseEachCategory(db, q, sort);
  return browseInOneQuery(db, q);
}

/**
 * Newest first, filtered by categories or price (the browse with filters): pages PostgreSQL reads
 * by walking an index in id order (newestByWalking). Not a course, an ISBN or a seller: those
 * indexes find few rows, which the planner rightly reads and sorts.
 */
function walksInOrder(q: BrowseQuery): boolean {
  if (q.courseCode !== undefined || q.isbn !== undefined || q.sellerId !== undefined) return false;
  return (q.categories?.length ?? 0) > 0 || q.minCents !== undefined || q.maxCents !== undefined;
}

function browseInOneQuery(db: Executor, q: BrowseQuery): Promise<ListingWithSeller[]> {
  let query = withSeller(db);
  if (q.campusId !== undefined) query = query.where('listings.campus_id', '=', q.campusId);
  if (!q.includeSold) {
    query = query.where(onMarket);
    if (q.now !== undefined) query = query.where(listedAt(q.now));
  }
  if (q.excludeSellers?.length) query = query.where('listings.seller_id', 'not in', [...q.excludeSellers]);
  if (q.sellerId !== undefined) query = query.where('listings.seller_id', '=', q.sellerId);
  if (q.categories?.length) query = query.where('listings.category', 'in', [...q.categories]);
  if (q.minCents !== undefined) query = query.where('listings.price_cents', '>=', q.minCents);
  if (q.maxCents !== undefined) query = query.where('listings.price_cents', '<=', q.maxCents);
  if (q.conditions?.length) query = query.where('listings.condition', 'in', [...q.conditions]);
  if (q.courseCode !== undefined) query = query.where('listings.course_code', '=', q.courseCode);
  if (q.isbn !== undefined) query = query.where('listings.isbn', '=', q.isbn);
  const sort = q.sort ?? 'newest';
  if (sort === 'newest') {
    if (q.beforeId !== undefined) query = query.where('listings.id', '<', q.beforeId);
    if (q.aboveId !== undefined) query = query.where('listings.id', '>', q.aboveId);
    return query.orderBy('listings.id', 'desc').limit(q.limit).execute();
  }
  const dir = sort === 'price_asc' ? 'asc' : 'desc';
  const after = q.afterPrice;
  if (after) {
    const op = sort === 'price_asc' ? '>' : '<';
    query = query.where((eb) =>
      eb.or([
        eb('listings.price_cents', op, after.price),
        eb.and([eb('listings.price_cents', '=', after.price), eb('listings.id', op, after.id)]),
      ]),
    );
  }
  return query.orderBy('listings.price_cents', dir).orderBy('listings.id', dir).limit(q.limit).execute();
}

/** One ordered page per category (each category asked once), merged into the page. */
async function pagePerCategory(
  q: BrowseQuery,
  sort: BrowseSort,
  read: (category: Category) => Promise<ListingWithSeller[]>,
): Promise<ListingWithSeller[]> {
  // A category asked twice is read once (its listings would otherwise appear twice).
  const pages: ListingWithSeller[][] = [];
  for (const category of new Set(q.categories)) pages.push(await read(category));
  const order = listOrder<ListingWithSeller>(
    sort,
    (r) => r.price_cents,
    (r) => r.id,
  );
  return mergeOrdered(pages, order, q.limit);
}

/**
 * A page over several categories, as one ordered page per category merged here. With
 * `category IN (…)` neither database can read a (campus, category, is_sold, …) index in the page's
 * order, so the planner reads every listing of those categories in a price range and sorts them
 * (16–18 ms per page on SQLite at 100k listings, even with statistics), or walks a global index
 * past every listing of the other categories. Each category's (campus, category, is_sold, id) or
 * (campus, category, is_sold, price, id) index (migration 016) gives its page in order instead
 * (≈ 0.2 ms each).
 */
function browseEachCategory(db: Executor, q: BrowseQuery, sort: BrowseSort): Promise<ListingWithSeller[]> {
  return pagePerCategory(q, sort, (category) => browseInOneQuery(db, { ...q, categories: [category] }));
}

/**
 * PostgreSQL, newest first with categories or a price range: each category's page (or the
 * campus's, for a price range alone) read by walking its (campus, category, is_sold, id) or
 * (campus, is_sold, id) index backwards over its newest WALK_WINDOW listings, with sorting off;
 * what the window does not fill, the planner's own plan reads from the listings before it.
 *
 * Under row-level security the planner multiplies the policy's campus condition by the query's own
 * `campus_id = …` and expects a few rows where a large campus has thousands (3 for 9,345 books in a
 * price range at the 100,000-listing campus of the scale benchmark). Expecting a few, it reads them
 * all and sorts them (62 ms for one category, 144 ms for two, 170–340 ms for a price range alone)
 * instead of walking the index until the page is full (0.7 ms and 2.0 ms). With sorting off it
 * walks. The window keeps a filter that matches almost nothing from walking the whole campus (0.6 s
 * there): past it, the rows are few, and reading and sorting them is what the planner does well.
 */
async function newestByWalking(db: Executor, q: BrowseQuery, window: number): Promise<ListingWithSeller[]> {
  const read = async (trx: Transaction<Database>) => {
    if (!q.categories?.length) return walkThenPlan(trx, q, window);
    return pagePerCategory(q, 'newest', (category) =>
      walkThenPlan(trx, { ...q, categories: [category] }, window),
    );
  };
  if (!db.isTransaction) return db.transaction().execute(read);
  // The caller's transaction goes on after this page: sorting goes back on for its later queries.
  const trx = db as Transaction<Database>;
  const rows = await read(trx);
  await sql`set local enable_sort to default`.execute(trx);
  return rows;
}

/** One category's (or the campus's) page: the window walked in order, then the rest planned. */
async function walkThenPlan(
  trx: Transaction<Database>,
  q: BrowseQuery,
  window: number,
): Promise<ListingWithSeller[]> {
  // Sorting off for the window's edge too: planned like the page, it would be read and sorted.
  await sql`set local enable_sort = off`.execute(trx);
  // The id `window` listings back: an index-only step down the same index the walk reads.
  let edge = trx.selectFrom('listings').select('listings.id').where('listings.is_sold', '=', 0);
  if (q.campusId !== undefined) edge = edge.where('listings.campus_id', '=', q.campusId);
  const category = q.categories?.[0];
  if (category !== undefined) edge = edge.where('listings.category', '=', category);
  if (q.beforeId !== undefined) edge = edge.where('listings.id', '<', q.beforeId);
  const windowEnd = await edge.orderBy('listings.id', 'desc').offset(window).limit(1).executeTakeFirst();
  const walked = await browseInOneQuery(trx, { ...q, aboveId: windowEnd?.id });
  if (walked.length >= q.limit || windowEnd === undefined) return walked;
  // Sorting back on for the rest (the transaction's own end resets it otherwise: SET LOCAL).
  await sql`set local enable_sort to default`.execute(trx);
  const planned = await browseInOneQuery(trx, {
    ...q,
    beforeId: windowEnd.id + 1,
    limit: q.limit - walked.length,
  });
  return [...walked, ...planned];
}
