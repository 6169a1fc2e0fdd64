import {
  CLAIMS_LIMITS,
  centsToDollars,
  type Category,
  type Condition,
  type Listing,
  type ListingPhoto,
} from '@campus/contract';
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database, ListingPhotosTable, ListingsTable } from '../db/schema.js';
import { imageVariants, photoUrl, type PhotoLinks } from '../media/index.js';

export type Executor = Kysely<Database> | Transaction<Database>;

export type ListingRow = Selectable<ListingsTable>;
export type ListingWithSeller = ListingRow & { first_name: string; last_name: string };
export type PhotoRow = Selectable<ListingPhotosTable>;

/** Listings with their seller's name (cards and lists show it). */
export function withSeller(db: Executor) {
  return db
    .selectFrom('listings')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .selectAll('listings')
    .select(['users.first_name', 'users.last_name']);
}

/** Unsold, not hidden by moderation, not taken off the market at its seller's move-out date. */
export function onMarket(eb: ExpressionBuilder<Database, 'listings'>) {
  return eb.and([
    eb('listings.is_sold', '=', 0),
    eb('listings.moderation', 'is', null),
    eb('listings.unlisted_at', 'is', null),
  ]);
}

/**
 * Still in its listed period at `now` (features.md §H). NULL is a listing from before the upgrade
 * whose period the start-up pass has not set yet: it stays listed.
 */
export function listedAt(now: number) {
  return (eb: ExpressionBuilder<Database, 'listings'>) =>
    eb.or([eb('listings.expires_at', 'is', null), eb('listings.expires_at', '>', now)]);
}

/** Whether a listing's period ended at or before `now`. */
export function isExpired(row: { expires_at: number | string | null }, now: number): boolean {
  return row.expires_at !== null && Number(row.expires_at) <= now;
}

/**
 * A listing a moderator removed (safety) is gone for everyone but its seller's own list: reads,
 * saves and deals answer it like an unknown id.
 */
export function isRemoved(row: { moderation: string | null }): boolean {
  return row.moderation === 'REMOVED';
}

/**
 * What a shared link previews of a listing, whichever campus it is on (the caller checks that the
 * campus is the one served at the link's address, and reads inside acrossCampuses): no seller, no
 * description.
 */
export function findPreviewRow(db: Executor, id: number) {
  return db
    .selectFrom('listings')
    .select([
      'id',
      'campus_id',
      'name',
      'category',
      'price_cents',
      'condition',
      'status',
      'image_key',
      'thumb_key',
      'moderation',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A listing of one campus by id: another campus's id is not found, like an unknown one. */
export function findById(db: Executor, campusId: number, id: number): Promise<ListingWithSeller | undefined> {
  return withSeller(db)
    .where('listings.id', '=', id)
    .where('listings.campus_id', '=', campusId)
    .executeTakeFirst();
}

/**
 * Unsold, unmoderated, listed listings by id, in no particular order (search results are re-ordered by the
 * caller).
 */
export function findUnsoldByIds(
  db: Executor,
  campusId: number,
  ids: readonly number[],
  now: number,
): Promise<ListingWithSeller[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return (
    withSeller(db)
      .where('listings.id', 'in', [...ids])
      .where('listings.campus_id', '=', campusId)
      .where(onMarket)
      // An expired listing the index still holds (its expiry job has not run yet) is not found.
      .where(listedAt(now))
      .execute()
  );
}

export async function insertListing(
  db: Executor,
  row: {
    sellerId: number;
    name: string;
    description: string;
    category: Category;
    priceCents: number;
    imageKey: string | null;
    thumbKey: string | null;
    now: number;
    condition?: string | null;
    courseCode?: string | null;
    isbn?: string | null;
    /** End of the listed period (features.md §H); the service passes now + LISTING_DAYS. */
    expiresAt?: number | null;
    /** A free item's claim window (features.md §H); null for a priced one. */
    claimWindowHours?: number | null;
  },
): Promise<ListingRow> {
  const inserted = await db
    .insertInto('listings')
    .values({
      seller_id: row.sellerId,
      name: row.name,
      description: row.description,
      category: row.category,
      price_cents: row.priceCents,
      image_key: row.imageKey,
      thumb_key: row.thumbKey,
      is_sold: 0,
      created_at: row.now,
      updated_at: row.now,
      condition: row.condition ?? null,
      course_code: row.courseCode ?? null,
      isbn: row.isbn ?? null,
      expires_at: row.expiresAt ?? null,
      claim_window_hours: row.claimWindowHours ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The cover is also the first row of listing_photos (the seed and older callers pass one photo).
  if (row.imageKey && row.thumbKey) {
    await db
      .insertInto('listing_photos')
      .values({
        listing_id: inserted.id,
        position: 0,
        image_key: row.imageKey,
        thumb_key: row.thumbKey,
        created_at: row.now,
      })
      .execute();
  }
  return inserted;
}

/** Photos of these listings, each list in order (cover first). */
export async function photosFor(db: Executor, ids: readonly number[]): Promise<Map<number, PhotoRow[]>> {
  const byListing = new Map<number, PhotoRow[]>();
  if (ids.length === 0) return byListing;
  const rows = await db
    .selectFrom('listing_photos')
    .selectAll()
    .where('listing_id', 'in', [...ids])
    .orderBy('listing_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = byListing.get(r.listing_id) ?? [];
    list.push(r);
    byListing.set(r.listing_id, list);
  }
  return byListing;
}

/** What the move-out season adds to a listing's answer (features.md §H). */
export interface SeasonFields {
  mustGoBy: string | null;
  heldUntil: string | null;
}

/**
 * The sellers' move-out days (their plans, while not done) and the hold days of reserved listings'
 * accepted offers: one query each for the whole page. Only AVAILABLE listings still on the market
 * "must go"; only RESERVED ones are held.
 */
async function seasonFor(
  db: Executor,
  rows: readonly ListingWithSeller[],
): Promise<Map<number, SeasonFields>> {
  const out = new Map<number, SeasonFields>();
  const available = rows.filter((r) => r.status === 'AVAILABLE' && r.unlisted_at === null);
  const held = rows.filter((r) => r.status === 'RESERVED' && r.accepted_offer_id !== null);
  const sellers = [...new Set(available.map((r) => r.seller_id))];
  const [plans, holds] = await Promise.all([
    sellers.length === 0
      ? []
      : db
          .selectFrom('move_out_plans')
          .select(['user_id', 'date'])
          .where('user_id', 'in', sellers)
          .where('done_at', 'is', null)
          .execute(),
    held.length === 0
      ? []
      : db
          .selectFrom('offers')
          .select(['id', 'hold_until'])
          .where(
            'id',
            'in',
            held.map((r) => r.accepted_offer_id!),
          )
          .where('hold_until', 'is not', null)
          .execute(),
  ]);
  const planDay = new Map(plans.map((p) => [p.user_id, p.date]));
  const holdDay = new Map(holds.map((h) => [h.id, h.hold_until]));
  for (const r of available) {
    const day = planDay.get(r.seller_id);
    if (day) out.set(r.id, { mustGoBy: day, heldUntil: null });
  }
  for (const r of held) {
    const day = holdDay.get(r.accepted_offer_id!);
    if (day) out.set(r.id, { mustGoBy: null, heldUntil: day });
  }
  return out;
}

/** Rows as API listings, with their photos and season fields (one query each for the whole page). */
export async function toListings(
  db: Executor,
  links: PhotoLinks,
  rows: readonly ListingWithSeller[],
): Promise<Listing[]> {
  const [photos, season] = await Promise.all([
    photosFor(
      db,
      rows.map((r) => r.id),
    ),
    seasonFor(db, rows),
  ]);
  return rows.map((r) => toListing(links, r, photos.get(r.id) ?? [], season.get(r.id)));
}

/** Flips sold/unsold for the seller's own listing; undefined when it is not theirs or is gone. */
export function toggleSold(
  db: Executor,
  id: number,
  sellerId: number,
  now: number,
): Promise<ListingRow | undefined> {
  return (
    db
      .updateTable('listings')
      // AVAILABLE/RESERVED ⇄ SOLD without a deal (features.md §A); is_sold mirrors status. Marking
      // a reserved listing unsold makes it AVAILABLE: its reservation ended with the manual sale.
      .set({
        is_sold: sql<number>`1 - is_sold`,
        status: sql<'AVAILABLE' | 'SOLD'>`case when is_sold = 1 then 'AVAILABLE' else 'SOLD' end`,
        // Back on the market: nobody holds it any more (a stale ACCEPTED offer is cancelled by the
        // next accept, deals/offers.ts).
        reserved_buyer_id: sql<number | null>`case when is_sold = 1 then null else reserved_buyer_id end`,
        accepted_offer_id: sql<number | null>`case when is_sold = 1 then null else accepted_offer_id end`,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('seller_id', '=', sellerId)
      .returningAll()
      .executeTakeFirst()
  );
}

/** Holds the listing's row until the transaction ends (PostgreSQL; SQLite writes are serial). */
export async function lockListing(trx: Executor, id: number, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select id from listings where id = ${id} for update`.execute(trx);
}

export async function deleteListing(
  db: Executor,
  id: number,
  sellerId: number,
): Promise<ListingRow | undefined> {
  return db
    .deleteFrom('listings')
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .returningAll()
    .executeTakeFirst();
}

/** A listing's photo as answers show it (the listing's campus: its files live under its prefix). */
export function toPhoto(links: PhotoLinks, campusId: number, p: PhotoRow): ListingPhoto {
  return {
    id: p.id,
    url: links.publicUrl(campusId, p.image_key),
    thumbnailUrl: links.publicUrl(campusId, p.thumb_key),
    variants: imageVariants(links, campusId, p.image_key),
  };
}

/** The one place rows become API listings (no seller e-mail: design §3). */
export function toListing(
  links: PhotoLinks,
  row: ListingWithSeller,
  photos: readonly PhotoRow[] = [],
  season: SeasonFields = { mustGoBy: null, heldUntil: null },
): Listing {
  const campusId = Number(row.campus_id);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category as Category,
    price: centsToDollars(row.price_cents),
    imageUrl: photoUrl(links, campusId, row.image_key),
    thumbnailUrl: photoUrl(links, campusId, row.thumb_key),
    imageVariants: imageVariants(links, campusId, row.image_key),
    seller: { id: row.seller_id, firstName: row.first_name, lastName: row.last_name },
    isSold: row.is_sold === 1,
    status: row.status,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    condition: (row.condition as Condition | null) ?? null,
    courseCode: row.course_code ?? null,
    isbn: row.isbn ?? null,
    photos: photos.map((p) => toPhoto(links, campusId, p)),
    expiresAt: row.expires_at === null ? null : new Date(Number(row.expires_at)).toISOString(),
    ...freeFields(row),
    mustGoBy: season.mustGoBy,
    heldUntil: season.heldUntil,
    // Last key on purpose: answers are personalised after the hot cache by rewriting it (personalise.ts).
    savedByMe: false,
  };
}

/** features.md §H: a free item (price 0) with its claim window and when that closes. */
function freeFields(row: ListingRow): Pick<Listing, 'free' | 'claimWindowHours' | 'claimsCloseAt'> {
  if (row.price_cents !== 0) return { free: false };
  const hours = row.claim_window_hours ?? CLAIMS_LIMITS.claimWindowHoursDefault;
  return {
    free: true,
    claimWindowHours: hours,
    // A listing turned free at its seller's move-out date collects claims from then, not from posting.
    claimsCloseAt: new Date(Number(row.free_from ?? row.created_at) + hours * 3_600_000).toISOString(),
  };
}
