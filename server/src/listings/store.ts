import type { Category, Listing } from '@campus/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, ListingsTable } from '../db/schema.js';
import { urlForKey } from '../media/index.js';
import type { SearchDoc } from './search/search-index.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type ListingRow = Selectable<ListingsTable>;
export type ListingWithSeller = ListingRow & { first_name: string; last_name: string };

export interface BrowseQuery {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
  sellerId?: number;
  /** Browse shows unsold listings only; a seller's own page shows everything. */
  includeSold: boolean;
  /** Keyset: only listings with a smaller id (newest first). */
  beforeId?: number;
  limit: number;
}

function withSeller(db: Executor) {
  return db
    .selectFrom('listings')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .selectAll('listings')
    .select(['users.first_name', 'users.last_name']);
}

export function browse(db: Executor, q: BrowseQuery): Promise<ListingWithSeller[]> {
  let query = withSeller(db);
  if (!q.includeSold) query = query.where('listings.is_sold', '=', 0);
  if (q.sellerId !== undefined) query = query.where('listings.seller_id', '=', q.sellerId);
  if (q.categories?.length) query = query.where('listings.category', 'in', [...q.categories]);
  if (q.minCents !== undefined) query = query.where('listings.price_cents', '>=', q.minCents);
  if (q.maxCents !== undefined) query = query.where('listings.price_cents', '<=', q.maxCents);
  if (q.beforeId !== undefined) query = query.where('listings.id', '<', q.beforeId);
  return query.orderBy('listings.id', 'desc').limit(q.limit).execute();
}

export function findById(db: Executor, id: number): Promise<ListingWithSeller | undefined> {
  return withSeller(db).where('listings.id', '=', id).executeTakeFirst();
}

/** Unsold listings by id, in no particular order (search results are re-ordered by the caller). */
export function findUnsoldByIds(db: Executor, ids: readonly number[]): Promise<ListingWithSeller[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return withSeller(db)
    .where('listings.id', 'in', [...ids])
    .where('listings.is_sold', '=', 0)
    .execute();
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
  },
): Promise<ListingRow> {
  return db
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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Flips sold/unsold for the seller's own listing; undefined when it is not theirs or is gone. */
export function toggleSold(
  db: Executor,
  id: number,
  sellerId: number,
  now: number,
): Promise<ListingRow | undefined> {
  return db
    .updateTable('listings')
    .set({ is_sold: sql<number>`1 - is_sold`, updated_at: now })
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .returningAll()
    .executeTakeFirst();
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

/** Rows for the search index: everything, or what changed at or after `sinceUpdatedAt`. */
export async function searchDocs(
  db: Executor,
  sinceUpdatedAt?: number,
): Promise<Array<SearchDoc & { updatedAt: number }>> {
  let query = db
    .selectFrom('listings')
    .select(['id', 'name', 'description', 'category', 'price_cents', 'is_sold', 'updated_at']);
  if (sinceUpdatedAt !== undefined) query = query.where('updated_at', '>=', sinceUpdatedAt);
  const rows = await query.orderBy('id', 'asc').execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    category: r.category,
    priceCents: r.price_cents,
    isSold: r.is_sold === 1,
    updatedAt: Number(r.updated_at),
  }));
}

export function toSearchDoc(row: ListingRow): SearchDoc {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    priceCents: row.price_cents,
    isSold: row.is_sold === 1,
  };
}

/** The one place rows become API listings (no seller e-mail: design §3). */
export function toListing(row: ListingWithSeller): Listing {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category as Category,
    price: row.price_cents / 100,
    imageUrl: row.image_key ? urlForKey(row.image_key) : null,
    thumbnailUrl: row.thumb_key ? urlForKey(row.thumb_key) : null,
    seller: { id: row.seller_id, firstName: row.first_name, lastName: row.last_name },
    isSold: row.is_sold === 1,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}
