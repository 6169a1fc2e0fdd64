import { isReviewTag, type Review, type ReviewTag } from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DealsTable, ReviewsTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type DealRow = Selectable<DealsTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type ReviewWithAuthor = ReviewRow & { first_name: string; last_name: string; listing_name: string };

export interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  created_at: number;
  bio: string | null;
  avatar_key: string | null;
}

/**
 * A student of the viewer's campus: another campus's student is unknown here (features.md §E),
 * named explicitly because SQLite has no row security.
 */
export function findUser(db: Executor, id: number, campusId: number): Promise<UserRow | undefined> {
  return (
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'created_at', 'bio', 'avatar_key'])
      .where('id', '=', id)
      .where('campus_id', '=', campusId)
      .where('verified', '=', 1)
      // An account deleted through safety's deletion has no profile any more.
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  );
}

export async function setBio(db: Executor, id: number, bio: string | null): Promise<void> {
  await db.updateTable('users').set({ bio }).where('id', '=', id).execute();
}

/** Sets the avatar and answers the keys it replaced (run in the caller's transaction). */
export async function setAvatar(
  trx: Executor,
  id: number,
  keys: { imageKey: string; thumbKey: string },
): Promise<AvatarKeys | undefined> {
  const old = await trx
    .selectFrom('users')
    .select(['avatar_key', 'avatar_thumb_key'])
    .where('id', '=', id)
    .executeTakeFirst();
  await trx
    .updateTable('users')
    .set({ avatar_key: keys.imageKey, avatar_thumb_key: keys.thumbKey })
    .where('id', '=', id)
    .execute();
  return old;
}

/** Puts the previous avatar back, unless another upload replaced `keys` meanwhile. */
export async function restoreAvatar(
  trx: Executor,
  id: number,
  keys: { imageKey: string },
  old: AvatarKeys | undefined,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ avatar_key: old?.avatar_key ?? null, avatar_thumb_key: old?.avatar_thumb_key ?? null })
    .where('id', '=', id)
    .where('avatar_key', '=', keys.imageKey)
    .execute();
}

export interface AvatarKeys {
  avatar_key: string | null;
  avatar_thumb_key: string | null;
}

/** A deal of the caller's campus (another campus's deal answers like an unknown one). */
export function findDeal(db: Executor, id: number, campusId: number): Promise<DealRow | undefined> {
  return db
    .selectFrom('deals')
    .selectAll()
    .where('id', '=', id)
    .where('campus_id', '=', campusId)
    .executeTakeFirst();
}

export async function countDeals(db: Executor, userId: number): Promise<number> {
  const r = await db
    .selectFrom('deals')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.or([eb('seller_id', '=', userId), eb('buyer_id', '=', userId)]))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** No-shows reported against the student (deals' meet-ups in state NO_SHOW). */
export async function countNoShows(db: Executor, userId: number): Promise<number> {
  const r = await db
    .selectFrom('meetups')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('reported_user_id', '=', userId)
    .where('status', '=', 'NO_SHOW')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The caller's deals, newest first, one more than `limit` (to know whether a next page exists). */
export function dealsOf(
  db: Executor,
  who: { userId: number; campusId: number },
  limit: number,
  beforeId?: number,
): Promise<DealRow[]> {
  let q = db
    .selectFrom('deals')
    .selectAll()
    .where('campus_id', '=', who.campusId)
    .where((eb) => eb.or([eb('seller_id', '=', who.userId), eb('buyer_id', '=', who.userId)]));
  if (beforeId !== undefined) q = q.where('id', '<', beforeId);
  return q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export function names(
  db: Executor,
  ids: readonly number[],
): Promise<Array<{ id: number; first_name: string; last_name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

function withAuthor(db: Executor) {
  return db
    .selectFrom('reviews')
    .innerJoin('users', 'users.id', 'reviews.reviewer_id')
    .innerJoin('deals', 'deals.id', 'reviews.deal_id')
    .selectAll('reviews')
    .select(['users.first_name', 'users.last_name', 'deals.listing_name']);
}

export function reviewsOfDeals(db: Executor, dealIds: readonly number[]): Promise<ReviewWithAuthor[]> {
  if (dealIds.length === 0) return Promise.resolve([]);
  return withAuthor(db)
    .where('reviews.deal_id', 'in', [...dealIds])
    .execute();
}

/** Revealed reviews of a student, newest first, one more than `limit`. */
export function revealedReviewsOf(
  db: Executor,
  subjectId: number,
  limit: number,
  beforeId?: number,
): Promise<ReviewWithAuthor[]> {
  let q = withAuthor(db)
    .where('reviews.subject_id', '=', subjectId)
    .where('reviews.revealed_at', 'is not', null);
  if (beforeId !== undefined) q = q.where('reviews.id', '<', beforeId);
  return q
    .orderBy('reviews.id', 'desc')
    .limit(limit + 1)
    .execute();
}

/**
 * Rating over revealed reviews, one per reviewer: each reviewer's latest review counts, so two
 * friends trading back and forth cannot inflate it (features.md §A).
 */
export async function rating(
  db: Executor,
  subjectId: number,
): Promise<{ average: number | null; count: number }> {
  const rows = await db
    .selectFrom('reviews')
    .select(['reviewer_id', 'stars', 'id'])
    .where('subject_id', '=', subjectId)
    .where('revealed_at', 'is not', null)
    .orderBy('id', 'asc')
    .execute();
  // Ascending ids: a later review of the same reviewer overwrites the earlier one.
  const latest = new Map<number, number>();
  for (const r of rows) latest.set(r.reviewer_id, r.stars);
  if (latest.size === 0) return { average: null, count: 0 };
  const sum = [...latest.values()].reduce((a, b) => a + b, 0);
  return { average: Math.round((sum / latest.size) * 10) / 10, count: latest.size };
}

export async function insertReview(
  db: Executor,
  row: {
    dealId: number;
    reviewerId: number;
    subjectId: number;
    stars: number;
    text: string;
    tags: readonly ReviewTag[];
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('reviews')
    .values({
      deal_id: row.dealId,
      reviewer_id: row.reviewerId,
      subject_id: row.subjectId,
      stars: row.stars,
      text: row.text,
      tags: row.tags.join(','),
      created_at: row.now,
      revealed_at: null,
    })
    .execute();
}

export function reviewsOfDeal(db: Executor, dealId: number): Promise<ReviewRow[]> {
  return db.selectFrom('reviews').selectAll().where('deal_id', '=', dealId).execute();
}

/**
 * Makes every still-blind review of the deal visible; answers whom the reviews revealed now are
 * about (a second, concurrent reveal finds nothing left, so each is announced once).
 */
export async function reveal(db: Executor, dealId: number, now: number): Promise<number[]> {
  const rows = await db
    .updateTable('reviews')
    .set({ revealed_at: now })
    .where('deal_id', '=', dealId)
    .where('revealed_at', 'is', null)
    .returning('subject_id')
    .execute();
  return rows.map((r) => r.subject_id);
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function toReview(r: ReviewWithAuthor): Review {
  return {
    id: r.id,
    dealId: r.deal_id,
    listingName: r.listing_name,
    author: { id: r.reviewer_id, firstName: r.first_name, lastName: r.last_name },
    subjectId: r.subject_id,
    stars: r.stars,
    text: r.text,
    tags: r.tags.split(',').filter(isReviewTag),
    createdAt: iso(r.created_at),
    revealedAt: r.revealed_at === null ? null : iso(r.revealed_at),
  };
}

export { iso };
