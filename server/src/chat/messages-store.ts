import type { ChatMessage } from '@campus/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { ChatMessagesTable, Database } from '../db/schema.js';
import { upsertRooms, type Executor, type RoomWrite } from './rooms-store.js';

/** A message as chat reads it; its campus is the room's, never read back. */
export type MessageRow = Omit<Selectable<ChatMessagesTable>, 'campus_id'>;

/**
 * A stored message as `viewerId` sees it: anti-scam flags (safety) only on the recipient's copy.
 * Without a viewer (the broker event) the flags ride along; deliverEvent strips them per user.
 */
export function toChatMessage(row: MessageRow, viewerId?: number): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    roomId: row.room_id,
    content: row.content,
    url: row.url,
    senderId: row.sender_id,
    sentAt: new Date(Number(row.sent_at)).toISOString(),
    listingId: row.listing_id,
    kind: row.kind,
  };
  const flags = row.flags ?? '';
  if (flags !== '' && viewerId !== row.sender_id) message.flags = flags.split(',');
  return message;
}

export interface NewMessage {
  /** The campus of the sender (and of the room): the writer commits each campus's messages apart. */
  campusId: number;
  roomId: string;
  lowUserId: number;
  highUserId: number;
  buyerId: number;
  sellerId: number;
  listingId: number;
  /**
   * The room's listing after this message; defaults to `listingId`. Null when the listing was
   * deleted: the room keeps no dangling reference, the message keeps the old id.
   */
  roomListingId?: number | null;
  senderId: number;
  content: string;
  url: string | null;
  sentAt: number;
  /** Comma-separated anti-scam flags (safety), '' for none. */
  flags?: string;
}

/** What a student's message writes to its room. */
function roomWrite(m: NewMessage, first: NewMessage = m, messages = 1): RoomWrite {
  return {
    roomId: m.roomId,
    lowUserId: m.lowUserId,
    highUserId: m.highUserId,
    buyerId: m.buyerId,
    sellerId: m.sellerId,
    listingId: m.roomListingId === undefined ? m.listingId : m.roomListingId,
    messages,
    firstAt: first.sentAt,
    lastAt: m.sentAt,
    campusId: m.campusId,
  };
}

/** The chat_messages row of a new message (the single and the batched insert share it). */
function messageRow(m: NewMessage) {
  return {
    room_id: m.roomId,
    sender_id: m.senderId,
    content: m.content,
    url: m.url,
    listing_id: m.listingId,
    sent_at: m.sentAt,
    flags: m.flags ?? '',
    campus_id: m.campusId,
  };
}

/**
 * Stores a message and updates its room: one statement on PostgreSQL, two on SQLite (which must
 * run inside a transaction; see insertMessages). The room row is upserted first: it takes the
 * room's row lock, so within a room ids are drawn and committed in the same order and a reader
 * catching up with `?after=` can never skip a message that commits late.
 */
async function insertMessageIn(db: Executor, dialect: Dialect, m: NewMessage): Promise<MessageRow> {
  if (dialect === 'postgres') {
    // One statement, one round trip: the room upsert runs first (its output feeds the message
    // insert), so the row lock is taken before the message id is drawn.
    return (
      db
        .with('room', () => upsertRooms(db, [roomWrite(m)]).returning('id'))
        .insertInto('chat_messages')
        // An insert from a select is not filled by the campus plugin: the campus is one of its columns.
        .columns(['room_id', 'sender_id', 'content', 'url', 'listing_id', 'sent_at', 'flags', 'campus_id'])
        .expression((eb) =>
          eb
            .selectFrom('room')
            .select((s) => [
              'room.id',
              s.cast<number>(s.val(m.senderId), 'integer').as('sender_id'),
              s.cast<string>(s.val(m.content), 'text').as('content'),
              s.cast<string | null>(s.val(m.url), 'varchar(500)').as('url'),
              s.cast<number>(s.val(m.listingId), 'integer').as('listing_id'),
              s.cast<number>(s.val(m.sentAt), 'bigint').as('sent_at'),
              s.cast<string>(s.val(m.flags ?? ''), 'varchar(200)').as('flags'),
              s.cast<number>(s.val(m.campusId), 'integer').as('campus_id'),
            ]),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
    );
  }
  await upsertRooms(db, [roomWrite(m)]).execute();
  return db.insertInto('chat_messages').values(messageRow(m)).returningAll().executeTakeFirstOrThrow();
}

/**
 * Stores messages (and their rooms' updates) in one transaction, in order: the hot path, batched
 * so that one commit carries every message that arrived while the previous commit ran. A batch
 * costs two statements whatever its size: one upsert of the rooms it touches (sorted by id, so two
 * processes lock rooms in the same order and cannot deadlock), then one multi-row insert of the
 * messages, whose ids are drawn after the room locks are held. Every message of a batch is of one
 * campus, which the caller runs it in (MessageWriter).
 */
export async function insertMessages(
  db: Kysely<Database>,
  dialect: Dialect,
  batch: readonly NewMessage[],
): Promise<MessageRow[]> {
  if (batch.length === 0) return [];
  // One statement, one round trip when a message arrives alone (the common, unloaded case).
  if (dialect === 'postgres' && batch.length === 1) return [await insertMessageIn(db, dialect, batch[0]!)];
  if (batch.length === 1) {
    return db.transaction().execute(async (tx) => [await insertMessageIn(tx, dialect, batch[0]!)]);
  }
  const rooms = new Map<string, { latest: NewMessage; first: NewMessage; count: number }>();
  for (const m of batch) {
    const room = rooms.get(m.roomId);
    if (room) {
      room.latest = m;
      room.count++;
    } else rooms.set(m.roomId, { latest: m, first: m, count: 1 });
  }
  const roomWrites = [...rooms.values()]
    .sort((a, b) => (a.latest.roomId < b.latest.roomId ? -1 : a.latest.roomId > b.latest.roomId ? 1 : 0))
    .map(({ latest, first, count }) => roomWrite(latest, first, count));
  return db.transaction().execute(async (tx) => {
    await upsertRooms(tx, roomWrites).execute();
    const rows = await tx.insertInto('chat_messages').values(batch.map(messageRow)).returningAll().execute();
    // Rows are inserted in order, so ids follow the batch; RETURNING itself promises no order.
    return rows.sort((a, b) => a.id - b.id);
  });
}

/** A card or system line another module puts in a room inside its own transaction. */
export interface PostedRow {
  roomId: string;
  /** 0 = the app itself (timers, moderation). */
  senderId: number;
  kind: 'offer' | 'meetup' | 'system';
  content: string;
  listingId: number;
  at: number;
  offerId: number | null;
  meetupId: number | null;
  /** Anti-scam flags (safety) of text the sender typed, e.g. a meet-up's place. */
  flags: readonly string[];
}

/** Inserts a posted message; its room was upserted first in the same transaction (postInTransaction). */
export function insertPosted(db: Executor, m: PostedRow): Promise<MessageRow> {
  return db
    .insertInto('chat_messages')
    .values({
      room_id: m.roomId,
      sender_id: m.senderId,
      content: m.content,
      url: null,
      listing_id: m.listingId,
      sent_at: m.at,
      kind: m.kind,
      offer_id: m.offerId,
      meetup_id: m.meetupId,
      flags: m.flags.join(','),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface MessagePageQuery {
  /** Only messages with a greater id, oldest first (catch-up after a reconnect). */
  after?: number;
  /** Only messages with a smaller id (older history). */
  before?: number;
  limit: number;
}

/**
 * A page of a room's messages (a room of `campusId`), always oldest first. With `after`, the page starts right after it;
 * otherwise it is the newest `limit` messages (below `before` when given). `more` says whether
 * messages exist beyond the page in the paging direction.
 */
export async function listMessages(
  db: Executor,
  roomId: string,
  campusId: number,
  q: MessagePageQuery,
): Promise<{ rows: MessageRow[]; more: boolean }> {
  let query = db
    .selectFrom('chat_messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('campus_id', '=', campusId);
  if (q.after !== undefined) {
    const rows = await query
      .where('id', '>', q.after)
      .orderBy('id', 'asc')
      .limit(q.limit + 1)
      .execute();
    return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
  }
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  return { rows: rows.slice(0, q.limit).reverse(), more: rows.length > q.limit };
}

export async function latestMessageId(
  db: Executor,
  roomId: string,
  campusId: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('room_id', '=', roomId)
    .where('campus_id', '=', campusId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? null : Number(row.max);
}
