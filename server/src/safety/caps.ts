import { SAFETY_ERROR_CODES, dailyConversationsMessage, dailyListingsMessage } from '@campus/contract';
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

export type CapKind = 'listing' | 'conversation';

const DAY_MS = 24 * 60 * 60 * 1000;

/** First key of the PostgreSQL advisory locks that serialise one student's daily caps. */
const CAPS_LOCK_SPACE = 0x63617073; // 'caps'

function capOf(ctx: AppContext, kind: CapKind): { max: number; message: string } {
  return kind === 'listing'
    ? { max: ctx.config.dailyListingsMax, message: dailyListingsMessage(ctx.config.dailyListingsMax) }
    : {
        max: ctx.config.dailyConversationsMax,
        message: dailyConversationsMessage(ctx.config.dailyConversationsMax),
      };
}

/**
 * Daily caps on new listings and new conversations (features.md §C): at most DAILY_LISTINGS_MAX /
 * DAILY_CONVERSATIONS_MAX (20 each) in any 24 hours, counted from creation_log (deleting a listing
 * does not give a post back).
 *
 * The count and the record are one step under a per-student lock, so simultaneous creations (two
 * processes, or one process interleaving requests) can never pass the cap: on PostgreSQL a
 * transaction-scoped advisory lock on the student; on SQLite the record is written first, which
 * takes the database's single write lock before the count (BEGIN IMMEDIATE in effect), and a
 * refusal rolls it back. With `trx` the slot is taken inside the caller's transaction (an offer
 * that opens a room), so it is given back if that change does not commit.
 */
export async function takeDaily(
  ctx: AppContext,
  userId: number,
  kind: CapKind,
  trx?: Kysely<Database>,
): Promise<void> {
  if (trx) return takeIn(ctx, trx, userId, kind);
  await ctx.db.kysely.transaction().execute((t) => takeIn(ctx, t, userId, kind));
}

async function takeIn(ctx: AppContext, db: Kysely<Database>, userId: number, kind: CapKind): Promise<void> {
  const now = ctx.clock();
  if (ctx.db.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(${CAPS_LOCK_SPACE}::int, ${userId}::int)`.execute(db);
  }
  await db.insertInto('creation_log').values({ user_id: userId, kind, created_at: now }).execute();
  const row = await db
    .selectFrom('creation_log')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min<number | string>('created_at').as('oldest'),
    ])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirst();
  const cap = capOf(ctx, kind);
  // The count includes the slot just recorded.
  if (Number(row?.n ?? 0) <= cap.max) return;
  // When the oldest of the day's creations leaves the window, one more is allowed.
  const oldest = row?.oldest;
  const retry =
    oldest === null || oldest === undefined
      ? 60
      : Math.max(1, Math.ceil((Number(oldest) + DAY_MS - now) / 1000));
  // Thrown inside the transaction: the record above is rolled back with it.
  throw new HttpError(429, cap.message, SAFETY_ERROR_CODES.dailyLimit, { 'retry-after': String(retry) });
}
