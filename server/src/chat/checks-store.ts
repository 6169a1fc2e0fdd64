import type { Executor } from './rooms-store.js';

/**
 * Everything a SEND must know before it is stored, in one round trip (on PostgreSQL a second
 * query per message was what pushed cross-process chat latency from tens of ms to a second at
 * 1,000 messages/s): the listing's seller, whether the peer is a verified student, whether either
 * blocked the other (safety's table, read here for the round trip; safety decides what it means)
 * and how many messages the room already has. All within the sender's campus: another campus's
 * listing, student or room reads as none.
 */
export async function sendChecks(
  db: Executor,
  q: { listingId: number; senderId: number; peerId: number; roomId: string; campusId: number },
): Promise<{ listingSellerId: number | null; peerExists: boolean; blocked: boolean; earlier: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('listings')
        .select('seller_id')
        .where('id', '=', q.listingId)
        .where('campus_id', '=', q.campusId)
        .as('seller_id'),
      eb
        .selectFrom('users')
        .select('id')
        .where('id', '=', q.peerId)
        .where('verified', '=', 1)
        .where('campus_id', '=', q.campusId)
        .as('peer_id'),
      eb
        .selectFrom('blocks')
        .select('blocker_id')
        .where((b) =>
          b.or([
            b.and([b('blocker_id', '=', q.senderId), b('blocked_id', '=', q.peerId)]),
            b.and([b('blocker_id', '=', q.peerId), b('blocked_id', '=', q.senderId)]),
          ]),
        )
        .limit(1)
        .as('blocker'),
      eb
        .selectFrom('chat_rooms')
        .select('message_count')
        .where('id', '=', q.roomId)
        .where('campus_id', '=', q.campusId)
        .as('earlier'),
    ])
    .executeTakeFirst();
  return {
    listingSellerId: row?.seller_id === null || row?.seller_id === undefined ? null : Number(row.seller_id),
    peerExists: row?.peer_id !== null && row?.peer_id !== undefined,
    blocked: row?.blocker !== null && row?.blocker !== undefined,
    earlier: Number(row?.earlier ?? 0),
  };
}

/**
 * Whether the room holds a conversation (at least one message) and whether either of its two
 * students blocked the other, in one round trip (typing and other signals between the two). There
 * is a conversation only in a room of this campus between two students of it: a room of another
 * campus, or one naming a student of another campus, holds none.
 */
export async function conversationState(
  db: Executor,
  roomId: string,
  a: number,
  b: number,
  campusId: number,
): Promise<{ exists: boolean; blocked: boolean }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('chat_rooms')
        .select('message_count')
        .where('id', '=', roomId)
        .where('campus_id', '=', campusId)
        .as('messages'),
      eb
        .selectFrom('users')
        .select((u) => u.fn.countAll<number>().as('n'))
        .where('id', 'in', [a, b])
        .where('campus_id', '=', campusId)
        .as('members'),
      eb
        .selectFrom('blocks')
        .select('blocker_id')
        .where((w) =>
          w.or([
            w.and([w('blocker_id', '=', a), w('blocked_id', '=', b)]),
            w.and([w('blocker_id', '=', b), w('blocked_id', '=', a)]),
          ]),
        )
        .limit(1)
        .as('blocker'),
    ])
    .executeTakeFirst();
  return {
    exists: Number(row?.messages ?? 0) > 0 && Number(row?.members ?? 0) === 2,
    blocked: row?.blocker !== null && row?.blocker !== undefined,
  };
}
