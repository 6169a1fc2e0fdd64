import {
  centsToDollars,
  type Category,
  type Condition,
  type SavedSearch,
  type WantedPost,
} from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SavedSearchesTable, WantedPostsTable } from '../db/schema.js';
import type { ListingWithSeller } from '../listings/index.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type SavedSearchRow = Selectable<SavedSearchesTable>;
export type WantedRow = Selectable<WantedPostsTable> & { first_name: string; last_name: string };

const list = (text: string): string[] => (text === '' ? [] : text.split(','));

export function toSavedSearch(r: SavedSearchRow): SavedSearch {
  return {
    id: r.id,
    query: r.query,
    categories: list(r.categories) as Category[],
    priceMin: r.price_min_cents === null ? null : centsToDollars(r.price_min_cents),
    priceMax: r.price_max_cents === null ? null : centsToDollars(r.price_max_cents),
    conditions: list(r.conditions) as Condition[],
    courseCode: r.course_code,
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

export function toWanted(r: WantedRow, now: number): WantedPost {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    category: r.category as Category,
    maxPrice: r.max_price_cents === null ? null : centsToDollars(r.max_price_cents),
    courseCode: r.course_code,
    author: { id: r.user_id, firstName: r.first_name, lastName: r.last_name },
    createdAt: new Date(Number(r.created_at)).toISOString(),
    expiresAt: new Date(Number(r.expires_at)).toISOString(),
    isOpen: Number(r.expires_at) > now,
  };
}

// ---- favourites

export async function save(db: Executor, userId: number, listingId: number, now: number): Promise<void> {
  await db
    .insertInto('listing_saves')
    .values({ user_id: userId, listing_id: listingId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'listing_id']).doNothing())
    .execute();
}

export async function unsave(db: Executor, userId: number, listingId: number): Promise<void> {
  await db
    .deleteFrom('listing_saves')
    .where('user_id', '=', userId)
    .where('listing_id', '=', listingId)
    .execute();
}

/**
 * The caller's saved listings, most recently saved first, keyset on the save's id. A listing a
 * moderator removed is left out (its save stays: a restored listing comes back to the list), and
 * only the caller's campus's listings are shown.
 */
export function savedListings(
  db: Executor,
  campusId: number,
  userId: number,
  beforeSaveId: number | undefined,
  limit: number,
): Promise<Array<ListingWithSeller & { save_id: number }>> {
  let q = db
    .selectFrom('listing_saves')
    .innerJoin('listings', 'listings.id', 'listing_saves.listing_id')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .selectAll('listings')
    .select(['users.first_name', 'users.last_name', 'listing_saves.id as save_id'])
    .where('listing_saves.user_id', '=', userId)
    .where('listings.campus_id', '=', campusId)
    .where((eb) =>
      eb.or([eb('listings.moderation', 'is', null), eb('listings.moderation', '!=', 'REMOVED')]),
    );
  if (beforeSaveId !== undefined) q = q.where('listing_saves.id', '<', beforeSaveId);
  return q.orderBy('listing_saves.id', 'desc').limit(limit).execute();
}

// ---- saved searches

export async function countSearches(db: Executor, userId: number): Promise<number> {
  const r = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

// ---- wanted posts

export function wantedWithAuthor(db: Executor) {
  return db
    .selectFrom('wanted_posts')
    .innerJoin('users', 'users.id', 'wanted_posts.user_id')
    .selectAll('wanted_posts')
    .select(['users.first_name', 'users.last_name']);
}

export async function countOpenWanted(db: Executor, userId: number, now: number): Promise<number> {
  const r = await db
    .selectFrom('wanted_posts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
