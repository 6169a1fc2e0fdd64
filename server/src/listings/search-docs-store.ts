/**
 * What the search index reads of the listings (search/live-index.ts): every campus's rows as search
 * documents, in full or since a time, for one shard or all; and one row as a document.
 */
import { sql } from 'kysely';
import type { SearchDoc } from './search/search-index.js';
import { isExpired, type Executor, type ListingRow } from './store.js';

/**
 * One part of the listings when the search index is split across threads (search/sharded-index.ts):
 * the listings whose id leaves remainder `index` when divided by `count`.
 */
export interface SearchShard {
  count: number;
  index: number;
}

/** Whether a listing belongs to a shard (every listing belongs to the whole index). */
export function inShard(id: number, shard: SearchShard | undefined): boolean {
  return shard === undefined || id % shard.count === shard.index;
}

/** A row for the search index: the document, the campus whose partition holds it, when it changed. */
export type CampusSearchDoc = SearchDoc & { campusId: number; updatedAt: number };

/**
 * Rows for the search index, of every campus (the caller reads across campuses and splits them by
 * `campusId`): everything, or what changed at or after `sinceUpdatedAt`; only one shard's when given.
 */
export async function searchDocs(
  db: Executor,
  sinceUpdatedAt?: number,
  shard?: SearchShard,
): Promise<CampusSearchDoc[]> {
  let query = db
    .selectFrom('listings')
    .select([
      'id',
      'campus_id',
      'name',
      'description',
      'category',
      'price_cents',
      'is_sold',
      'updated_at',
      'condition',
      'course_code',
      'isbn',
      'moderation',
      'expires_at',
      'unlisted_at',
    ]);
  if (sinceUpdatedAt !== undefined) query = query.where('updated_at', '>=', sinceUpdatedAt);
  // Both databases compute `%` on integers; the shard numbers are ours, not a caller's input.
  if (shard) query = query.where(sql<number>`id % ${sql.lit(shard.count)}`, '=', shard.index);
  const rows = await query.orderBy('id', 'asc').execute();
  return rows.map((r) => ({
    id: r.id,
    campusId: Number(r.campus_id),
    name: r.name,
    description: r.description,
    category: r.category,
    priceCents: r.price_cents,
    isSold: outOfSearch(r),
    condition: r.condition,
    courseCode: r.course_code,
    isbn: r.isbn,
    updatedAt: Number(r.updated_at),
  }));
}

/**
 * Expired as of the row's last change. The index keeps no clock: the expiry job moves `updated_at`
 * when a listing's period ends (listings/freshness-jobs.ts), and renewal sets a new period after it,
 * so every process's index follows the row; a read in between is filtered by `listedAt`.
 */
function lapsed(row: { expires_at: number | string | null; updated_at: number | string }): boolean {
  return isExpired(row, Number(row.updated_at));
}

/**
 * A listing hidden by moderation (safety), lapsed (freshness) or taken off the market at its
 * seller's move-out date is out of search like a sold one.
 */
function outOfSearch(row: {
  is_sold: number;
  moderation: string | null;
  unlisted_at: number | string | null;
  expires_at: number | string | null;
  updated_at: number | string;
}): boolean {
  return row.is_sold === 1 || row.moderation !== null || lapsed(row) || row.unlisted_at !== null;
}

export function toSearchDoc(row: ListingRow): SearchDoc {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    priceCents: row.price_cents,
    isSold: outOfSearch(row),
    condition: row.condition,
    courseCode: row.course_code,
    isbn: row.isbn,
  };
}
