import { SAFETY_ERROR_CODES, dailyConversationsMessage, dailyListingsMessage } from '@campus/contract';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';

export type CapKind = 'listing' | 'conversation';

const DAY_MS = 24 * 60 * 60 * 1000;

function capOf(ctx: AppContext, kind: CapKind): { max: number; message: string } {
  return kind === 'listing'
    ? { max: ctx.config.dailyListingsMax, message: dailyListingsMessage(ctx.config.dailyListingsMax) }
    : {
        max: ctx.config.dailyConversationsMax,
        message: dailyConversationsMessage(ctx.config.dailyConversationsMax),
      };
}

/**
 * Daily caps on new listings and new conversations (features.md §C): at most DAILY_LISTINGS_MAX / DAILY_CONVERSATIONS_MAX
 * (20 each) in any 24 hours, counted from creation_log (deleting a listing does not give a post back). Checked, then
 * recorded: two creations racing on two processes can let one extra through, never more per race.
 */
export async function takeDaily(ctx: AppContext, userId: number, kind: CapKind): Promise<void> {
  const db = ctx.db.kysely;
  const now = ctx.clock();
  const row = await db
    .selectFrom('creation_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirst();
  const cap = capOf(ctx, kind);
  if (Number(row?.n ?? 0) >= cap.max) {
    // When the oldest of the day's creations leaves the window, one more is allowed.
    const oldest = await db
      .selectFrom('creation_log')
      .select('created_at')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('created_at', '>', now - DAY_MS)
      .orderBy('created_at', 'asc')
      .limit(1)
      .executeTakeFirst();
    const retry = oldest ? Math.max(1, Math.ceil((Number(oldest.created_at) + DAY_MS - now) / 1000)) : 60;
    throw new HttpError(429, cap.message, SAFETY_ERROR_CODES.dailyLimit, { 'retry-after': String(retry) });
  }
  await db.insertInto('creation_log').values({ user_id: userId, kind, created_at: now }).execute();
}
