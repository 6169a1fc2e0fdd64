import type { ChatRoomSummary } from '@campus/contract';
import { sql } from 'kysely';
import type { CardRefs } from './message-kinds.js';
import { toChatMessage } from './messages-store.js';
import type { Executor } from './rooms-store.js';

/** A room of the inbox, and the cards (offer, meet-up) its last message refers to. */
export interface InboxRoom {
  summary: ChatRoomSummary;
  lastMessageCards: CardRefs;
}

/**
 * The caller's rooms of their campus, newest activity first, with peer, listing, last message and
 * unread count.
 */
export async function listRooms(
  db: Executor,
  userId: number,
  campusId: number,
  thumbnailUrl: (key: string | null) => string | null,
): Promise<InboxRoom[]> {
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
    .where('r.campus_id', '=', campusId)
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
    lastMessageCards: { offer_id: r.m_offer_id, meetup_id: r.m_meetup_id },
    summary: summaryOf(r),
  }));

  function summaryOf(r: (typeof rows)[number]): ChatRoomSummary {
    return {
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
    };
  }
}
