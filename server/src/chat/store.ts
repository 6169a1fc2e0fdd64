import type { ChatMessage, ChatRoomSummary } from '@campus/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { ChatMessagesTable, Database } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type MessageRow = Selectable<ChatMessagesTable>;

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

export interface RoomRow {
  id: string;
  low_user_id: number;
  high_user_id: number;
  buyer_id: number;
  seller_id: number;
  listing_id: number | null;
  message_count: number;
}

export function findRoom(db: Executor, roomId: string): Promise<RoomRow | undefined> {
  return db
    .selectFrom('chat_rooms')
    .select(['id', 'low_user_id', 'high_user_id', 'buyer_id', 'seller_id', 'listing_id', 'message_count'])
    .where('id', '=', roomId)
    .executeTakeFirst();
}

/**
 * One round trip for the checks a SEND needs: the listing's seller (null when the listing does not
 * exist) and whether the other user exists and is verified.
 */
/**
 * Everything a SEND must know before it is stored, in one round trip (on PostgreSQL a second
 * query per message was what pushed cross-process chat latency from tens of ms to a second at
 * 1,000 messages/s): the listing's seller, whether the peer is a verified student, whether either
 * blocked the other (safety's table, read here for the round trip; safety decides what it means)
 * and how many messages the room already has.
 */
export async function sendChecks(
  db: Executor,
  q: { listingId: number; senderId: number; peerId: number; roomId: string },
): Promise<{ listingSellerId: number | null; peerExists: boolean; blocked: boolean; earlier: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('listings').select('seller_id').where('id', '=', q.listingId).as('seller_id'),
      eb.selectFrom('users').select('id').where('id', '=', q.peerId).where('verified', '=', 1).as('peer_id'),
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
      eb.selectFrom('chat_rooms').select('message_count').where('id', '=', q.roomId).as('earlier'),
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
 * students blocked the other, in one round trip (typing and other signals between the two).
 */
export async function conversationState(
  db: Executor,
  roomId: string,
  a: number,
  b: number,
): Promise<{ exists: boolean; blocked: boolean }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('chat_rooms').select('message_count').where('id', '=', roomId).as('messages'),
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
    exists: Number(row?.messages ?? 0) > 0,
    blocked: row?.blocker !== null && row?.blocker !== undefined,
  };
}

export interface NewMessage {
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

/**
 * Stores a message and updates its room: one statement on PostgreSQL, two on SQLite (which must
 * run inside a transaction; see insertMessages). The room row is upserted first: it takes the
 * room's row lock, so within a room ids are drawn and committed in the same order and a reader
 * catching up with `?after=` can never skip a message that commits late.
 */
async function insertMessageIn(db: Executor, dialect: Dialect, m: NewMessage): Promise<MessageRow> {
  const upsertRoom = (k: Executor) =>
    k
      .insertInto('chat_rooms')
      .values({
        id: m.roomId,
        low_user_id: m.lowUserId,
        high_user_id: m.highUserId,
        buyer_id: m.buyerId,
        seller_id: m.sellerId,
        listing_id: roomListing(m),
        message_count: 1,
        created_at: m.sentAt,
        last_activity_at: m.sentAt,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          // The room describes its latest topic: who is buying what from whom.
          buyer_id: m.buyerId,
          seller_id: m.sellerId,
          listing_id: roomListing(m),
          message_count: sql<number>`chat_rooms.message_count + 1`,
          last_activity_at: m.sentAt,
        }),
      );
  if (dialect === 'postgres') {
    // One statement, one round trip: the room upsert runs first (its output feeds the message
    // insert), so the row lock is taken before the message id is drawn.
    return db
      .with('room', () => upsertRoom(db).returning('id'))
      .insertInto('chat_messages')
      .columns(['room_id', 'sender_id', 'content', 'url', 'listing_id', 'sent_at', 'flags'])
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
          ]),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  await upsertRoom(db).execute();
  return db.insertInto('chat_messages').values(messageRow(m)).returningAll().executeTakeFirstOrThrow();
}

function roomListing(m: NewMessage): number | null {
  return m.roomListingId === undefined ? m.listingId : m.roomListingId;
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
): Promise<boolean> {
  const row = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
    .select('m.id')
    .where('m.room_id', '=', roomId)
    .where('m.listing_id', '=', listingId)
    .where('r.buyer_id', '=', buyerId)
    .where('r.seller_id', '=', sellerId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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
  };
}

/**
 * Stores messages (and their rooms' updates) in one transaction, in order: the hot path, batched
 * so that one commit carries every message that arrived while the previous commit ran. A batch
 * costs two statements whatever its size: one upsert of the rooms it touches (sorted by id, so two
 * processes lock rooms in the same order and cannot deadlock), then one multi-row insert of the
 * messages, whose ids are drawn after the room locks are held.
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
  const roomRows = [...rooms.values()]
    .sort((a, b) => (a.latest.roomId < b.latest.roomId ? -1 : a.latest.roomId > b.latest.roomId ? 1 : 0))
    .map(({ latest: m, first, count }) => ({
      id: m.roomId,
      low_user_id: m.lowUserId,
      high_user_id: m.highUserId,
      buyer_id: m.buyerId,
      seller_id: m.sellerId,
      listing_id: roomListing(m),
      message_count: count,
      created_at: first.sentAt,
      last_activity_at: m.sentAt,
    }));
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('chat_rooms')
      .values(roomRows)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          buyer_id: eb.ref('excluded.buyer_id'),
          seller_id: eb.ref('excluded.seller_id'),
          listing_id: eb.ref('excluded.listing_id'),
          message_count: sql<number>`chat_rooms.message_count + excluded.message_count`,
          last_activity_at: eb.ref('excluded.last_activity_at'),
        })),
      )
      .execute();
    const rows = await tx.insertInto('chat_messages').values(batch.map(messageRow)).returningAll().execute();
    // Rows are inserted in order, so ids follow the batch; RETURNING itself promises no order.
    return rows.sort((a, b) => a.id - b.id);
  });
}

export interface MessagePageQuery {
  /** Only messages with a greater id, oldest first (catch-up after a reconnect). */
  after?: number;
  /** Only messages with a smaller id (older history). */
  before?: number;
  limit: number;
}

/**
 * A page of a room's messages, always oldest first. With `after`, the page starts right after it;
 * otherwise it is the newest `limit` messages (below `before` when given). `more` says whether
 * messages exist beyond the page in the paging direction.
 */
export async function listMessages(
  db: Executor,
  roomId: string,
  q: MessagePageQuery,
): Promise<{ rows: MessageRow[]; more: boolean }> {
  let query = db.selectFrom('chat_messages').selectAll().where('room_id', '=', roomId);
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

export async function latestMessageId(db: Executor, roomId: string): Promise<number | null> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? null : Number(row.max);
}

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

/** The caller's rooms, newest activity first, with peer, listing, last message and unread count. */
export async function listRooms(
  db: Executor,
  userId: number,
  thumbnailUrl: (key: string | null) => string | null,
): Promise<ChatRoomSummary[]> {
  const rows = await db
    .selectFrom('chat_rooms as r')
    .innerJoin('users as p', (join) =>
      join.on((eb) =>
        eb(
          'p.id',
          '=',
          eb
            .case()
            .when('r.low_user_id', '=', userId)
            .then(eb.ref('r.high_user_id'))
            .else(eb.ref('r.low_user_id'))
            .end(),
        ),
      ),
    )
    .leftJoin('listings as l', 'l.id', 'r.listing_id')
    // The room's newest message, found through the (room_id, id) index.
    .leftJoin('chat_messages as m', (join) =>
      join.on((eb) =>
        eb(
          'm.id',
          '=',
          eb
            .selectFrom('chat_messages as x')
            .select((e) => e.fn.max('x.id').as('max_id'))
            .whereRef('x.room_id', '=', 'r.id'),
        ),
      ),
    )
    .leftJoin('chat_reads as rd', (join) =>
      join.onRef('rd.room_id', '=', 'r.id').on('rd.user_id', '=', userId),
    )
    .where((eb) => eb.or([eb('r.low_user_id', '=', userId), eb('r.high_user_id', '=', userId)]))
    .select((eb) => [
      'r.id',
      'r.buyer_id',
      'r.seller_id',
      'r.listing_id',
      'r.message_count',
      'r.last_activity_at',
      'p.id as peer_id',
      'p.first_name as peer_first_name',
      'p.last_name as peer_last_name',
      'l.name as listing_name',
      'l.thumb_key as listing_thumb_key',
      'm.id as m_id',
      'm.content as m_content',
      'm.url as m_url',
      'm.sender_id as m_sender_id',
      'm.sent_at as m_sent_at',
      'm.listing_id as m_listing_id',
      'm.kind as m_kind',
      'm.offer_id as m_offer_id',
      'm.meetup_id as m_meetup_id',
      eb
        .selectFrom('chat_messages as u')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('u.room_id', '=', 'r.id')
        .where('u.sender_id', '<>', userId)
        .where('u.id', '>', (e) => e.fn.coalesce('rd.last_read_message_id', sql<number>`0`))
        .as('unread_count'),
    ])
    .orderBy('r.last_activity_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    roomKey: r.id,
    buyerId: r.buyer_id,
    sellerId: r.seller_id,
    listingId: r.listing_id,
    messageCount: Number(r.message_count),
    unreadCount: Number(r.unread_count ?? 0),
    lastMessage:
      r.m_id === null || r.m_sent_at === null || r.m_sender_id === null || r.m_content === null
        ? null
        : toChatMessage({
            id: r.m_id,
            room_id: r.id,
            content: r.m_content,
            url: r.m_url,
            sender_id: r.m_sender_id,
            sent_at: r.m_sent_at,
            listing_id: r.m_listing_id,
            // The inbox preview carries no anti-scam flags; the conversation itself does.
            flags: '',
            kind: r.m_kind ?? 'text',
            offer_id: r.m_offer_id,
            meetup_id: r.m_meetup_id,
          }),
    peer: { id: r.peer_id, firstName: r.peer_first_name, lastName: r.peer_last_name },
    listing:
      r.listing_id === null || r.listing_name === null
        ? null
        : { id: r.listing_id, name: r.listing_name, thumbnailUrl: thumbnailUrl(r.listing_thumb_key) },
  }));
}
