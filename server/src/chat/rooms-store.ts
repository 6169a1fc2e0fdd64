import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChatRoomsTable, Database } from '../db/schema.js';

export type Executor = Kysely<Database> | Transaction<Database>;

/** Who is buying what from whom in a room: the pair, their roles, and the listing talked about. */
export interface RoomTopic {
  roomId: string;
  lowUserId: number;
  highUserId: number;
  buyerId: number;
  sellerId: number;
  /** Null when the listing was deleted: the room keeps no dangling reference. */
  listingId: number | null;
}

/** A write to one room: its topic after the write, how many messages it adds, and when. */
export interface RoomWrite extends RoomTopic {
  /** Messages this write adds; 0 opens the room for a message that follows in the same transaction. */
  messages: number;
  /** The first of the write's messages (a new room's `created_at`). */
  firstAt: number;
  /** The last of them (the room's `last_activity_at`). */
  lastAt: number;
  /**
   * The campus of the room (that of its two students). Written explicitly rather than left to the
   * insert plugin: PostgreSQL's one-statement SEND runs this upsert inside a CTE, which the plugin
   * does not see, and a batch names its campus rather than trusting whose scope drained it.
   */
  campusId: number;
}

/** A room as the queries here read it: the table's columns, without its timestamps. */
export type RoomRow = Pick<
  ChatRoomsTable,
  'id' | 'low_user_id' | 'high_user_id' | 'buyer_id' | 'seller_id' | 'listing_id' | 'message_count'
>;

/**
 * The one upsert of `chat_rooms`, for every writer (a SEND, a batch of them, a card another module
 * posts): a new room is inserted; an existing one takes the topic of its latest message, counts the
 * new messages and moves its activity time. Writes that only open a room (no messages yet) leave an
 * existing room as it is. Returned unexecuted, so PostgreSQL's single-message path can run it as the
 * first step of one statement. Rows must be sorted by id when there are several (lock order).
 */
export function upsertRooms(db: Executor, rooms: readonly RoomWrite[]) {
  const insert = db.insertInto('chat_rooms').values(
    rooms.map((r) => ({
      id: r.roomId,
      low_user_id: r.lowUserId,
      high_user_id: r.highUserId,
      buyer_id: r.buyerId,
      seller_id: r.sellerId,
      listing_id: r.listingId,
      message_count: r.messages,
      created_at: r.firstAt,
      last_activity_at: r.lastAt,
      campus_id: r.campusId,
    })),
  );
  if (rooms.every((r) => r.messages === 0)) return insert.onConflict((oc) => oc.column('id').doNothing());
  return insert.onConflict((oc) =>
    oc.column('id').doUpdateSet((eb) => ({
      // The room describes its latest topic: who is buying what from whom.
      buyer_id: eb.ref('excluded.buyer_id'),
      seller_id: eb.ref('excluded.seller_id'),
      listing_id: eb.ref('excluded.listing_id'),
      message_count: sql<number>`chat_rooms.message_count + excluded.message_count`,
      last_activity_at: eb.ref('excluded.last_activity_at'),
    })),
  );
}

/** The room, when it is one of this campus's (another campus's room is no room here). */
export function findRoom(db: Executor, roomId: string, campusId: number): Promise<RoomRow | undefined> {
  return db
    .selectFrom('chat_rooms')
    .select(['id', 'low_user_id', 'high_user_id', 'buyer_id', 'seller_id', 'listing_id', 'message_count'])
    .where('id', '=', roomId)
    .where('campus_id', '=', campusId)
    .executeTakeFirst();
}

/**
 * Whether the user is a student of this campus: the other student of a room must be, or the room
 * is none of the caller's (an id of another campus answers like an id nobody has).
 */
export async function isOfCampus(db: Executor, userId: number, campusId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('campus_id', '=', campusId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether this pair's room already talked about `listingId` (with these roles), so a
 * message about it may still be sent after the listing was deleted.
 */
export async function roomTalkedAbout(
  db: Executor,
  roomId: string,
  buyerId: number,
  sellerId: number,
  listingId: number,
  campusId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
    .select('m.id')
    .where('m.room_id', '=', roomId)
    .where('r.campus_id', '=', campusId)
    .where('m.listing_id', '=', listingId)
    .where('r.buyer_id', '=', buyerId)
    .where('r.seller_id', '=', sellerId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
