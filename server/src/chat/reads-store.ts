import { sql } from 'kysely';
import type { Executor } from './rooms-store.js';

/** Moves the user's read marker forward (never back). */
export async function markRead(
  db: Executor,
  roomId: string,
  userId: number,
  messageId: number,
): Promise<void> {
  await db
    .insertInto('chat_reads')
    .values({ room_id: roomId, user_id: userId, last_read_message_id: messageId })
    .onConflict((oc) =>
      oc.columns(['room_id', 'user_id']).doUpdateSet({
        last_read_message_id: sql<number>`case when chat_reads.last_read_message_id > excluded.last_read_message_id then chat_reads.last_read_message_id else excluded.last_read_message_id end`,
      }),
    )
    .execute();
}
