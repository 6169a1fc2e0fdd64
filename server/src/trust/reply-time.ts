import { DAY_MS, TRUST_LIMITS } from '@campus/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Median reply time (features.md §A "Profiles"): over the last 90 days, in each of the student's
 * rooms, the time from the peer's first message to the student's first message after it. Rooms
 * where the student has not answered yet are left out (they have no reply time; counting them as
 * infinite would make one ignored spam message dominate a quiet student's figure). `system`
 * messages (deal events) are nobody's words and are ignored on both sides.
 */
export async function medianReplyMinutes(
  db: Kysely<Database>,
  userId: number,
  now: number,
): Promise<number | null> {
  const since = now - TRUST_LIMITS.replyWindowDays * DAY_MS;
  const rows = await sql<{ t0: number | string; t1: number | string | null }>`
    select p.t0 as t0,
      (select min(m.sent_at) from chat_messages m
        where m.room_id = p.room_id and m.sender_id = ${userId} and m.kind <> 'system'
          and m.sent_at >= p.t0) as t1
    from (
      select m.room_id as room_id, min(m.sent_at) as t0
      from chat_messages m
      join chat_rooms r on r.id = m.room_id
      where (r.low_user_id = ${userId} or r.high_user_id = ${userId})
        and m.sender_id <> ${userId} and m.kind <> 'system'
      group by m.room_id
    ) p
    where p.t0 >= ${since}`.execute(db);
  const gaps = rows.rows
    .filter((r) => r.t1 !== null)
    .map((r) => Number(r.t1) - Number(r.t0))
    .sort((a, b) => a - b);
  return median(gaps) === null ? null : Math.round((median(gaps) as number) / 60_000);
}

export function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
