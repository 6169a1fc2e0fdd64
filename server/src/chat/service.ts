import {
  CHAT_LIMIT_MESSAGES,
  LIMITS,
  SAFETY_ERROR_CODES,
  SAFETY_MESSAGES,
  MESSAGES,
  chatSendSchema,
  parseRoomId,
  roomIdFor,
  type ChatMessage,
  type ChatRoomSummary,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors.js';
import type { ChatEvent } from './broker.js';
import type { MessageKinds } from './message-kinds.js';
import type { ChatPhotos } from './photos.js';
import * as store from './store.js';
import { MessageWriter } from './writer.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A message was stored (group commit, no transaction of ours) and published live. After commit:
     * notifications schedules the unread-chat e-mail and push for the recipient.
     */
    'chat.messageSent': { message: ChatMessage; recipientId: number };
    /** A student's read marker moved. After commit: notifications tells the other party ("Seen"). */
    'chat.read': { userId: number; roomId: string; lastReadMessageId: number };
  }
}

export interface HistoryPage {
  messages: ChatMessage[];
  /** Older messages exist before this page (no `after` given). */
  hasOlder: boolean;
  /** Newer messages exist after this page (`after` given). */
  hasNewer: boolean;
}

/**
 * Safety's check of a SEND before it is stored (given at construction): throws to refuse
 * (blocked pair, daily cap of new conversations) and answers the message's anti-scam flags.
 */
export type SendGuard = (input: {
  senderId: number;
  peerId: number;
  roomId: string;
  content: string;
  /** Either student blocked the other (read with the send checks, in the same round trip). */
  blocked: boolean;
  /** Messages in the room before this one (0: a new conversation). */
  earlier: number;
}) => Promise<readonly string[]>;

export interface HistoryQuery {
  after?: number;
  before?: number;
  limit?: number;
}

/**
 * The rules of chat: who may read, subscribe to and write which room, and what a message is.
 * Every call runs as work of the caller's campus (the auth hook, or the STOMP session's scope) and
 * reads and writes only that campus's rooms (features.md §E): a room, listing or student of another
 * campus answers as one that does not exist.
 */
export class ChatService {
  private readonly writer: MessageWriter;

  constructor(
    private readonly ctx: AppContext,
    private readonly publish: (event: ChatEvent) => Promise<void>,
    private readonly thumbnailUrl: (key: string | null) => string | null,
    private readonly photos: Pick<ChatPhotos, 'assertUploadedBy' | 'present' | 'signsUrls'>,
    /** Cards (offers, meet-ups) embedded in history in their current state. */
    private readonly messageKinds: MessageKinds,
    private readonly sendGuard: SendGuard,
  ) {
    this.writer = new MessageWriter(ctx.db.kysely, ctx.db.dialect);
  }

  private get db() {
    return this.ctx.db.kysely;
  }

  /** The two user ids of a room, or a 404 for something that is not a room id. */
  private members(roomId: string): [number, number] {
    const pair = parseRoomId(roomId);
    if (!pair) throw notFound(MESSAGES.notFound);
    return pair;
  }

  /** Throws 403 unless the user is one of the room's two users. */
  assertMember(userId: number, roomId: string): [number, number] {
    const pair = this.members(roomId);
    if (pair[0] !== userId && pair[1] !== userId) throw forbidden(MESSAGES.chatRoomForbidden);
    return pair;
  }

  /**
   * Whether the user may SUBSCRIBE to the room: they are one of its two students and the other is a
   * student of their campus. A room with a student of another campus (or with an id nobody has) is
   * not theirs, so a subscription cannot tell the two apart.
   */
  async maySubscribe(userId: number, roomId: string): Promise<boolean> {
    const pair = parseRoomId(roomId);
    if (pair === null || (pair[0] !== userId && pair[1] !== userId)) return false;
    const peer = pair[0] === userId ? pair[1] : pair[0];
    return store.isOfCampus(this.db, peer, requireCampusId());
  }

  /**
   * Signals between the two students of a room (typing): only inside a conversation that exists
   * (one of them wrote first), never across a block. Throws 403 otherwise.
   */
  async assertOpenConversation(userId: number, roomId: string): Promise<void> {
    const [low, high] = this.assertMember(userId, roomId);
    const { exists, blocked } = await store.conversationState(this.db, roomId, low, high, requireCampusId());
    if (!exists) throw forbidden(CHAT_LIMIT_MESSAGES.noConversation);
    if (blocked) throw new HttpError(403, SAFETY_MESSAGES.blocked, SAFETY_ERROR_CODES.blocked);
  }

  /**
   * SEND /app/chat.send/{buyerId}/{sellerId}: validates, stores, then publishes for delivery.
   * Resolves once the message is stored (the STOMP receipt waits for this).
   */
  async send(senderId: number, buyerId: number, sellerId: number, payload: unknown): Promise<ChatMessage> {
    if (buyerId === sellerId) throw badRequest(MESSAGES.chatSelf);
    if (senderId !== buyerId && senderId !== sellerId) throw forbidden(MESSAGES.chatRoomForbidden);
    const parsed = chatSendSchema.safeParse(payload);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MESSAGES.chatContentRequired);
    const { listingId } = parsed.data;
    const given = parsed.data.url ? parsed.data.url : null;
    const url = given === null ? null : await this.photos.assertUploadedBy(senderId, given);
    const content = parsed.data.content.trim().length === 0 ? '' : parsed.data.content;

    const campusId = requireCampusId();
    const peerId = senderId === buyerId ? sellerId : buyerId;
    const roomId = roomIdFor(buyerId, sellerId);
    // Within the sender's campus: another campus's listing or student answers as an unknown one.
    const { listingSellerId, peerExists, blocked, earlier } = await store.sendChecks(this.db, {
      listingId,
      senderId,
      peerId,
      roomId,
      campusId,
    });
    // A deleted listing does not end the conversation about it. The pair may go on
    // talking in the room that already held it (same buyer and seller); the room forgets the id.
    const listingGone = listingSellerId === null;
    if (
      listingGone &&
      !(await store.roomTalkedAbout(this.db, roomId, buyerId, sellerId, listingId, campusId))
    )
      throw notFound(MESSAGES.listingNotFound);
    if (!peerExists) throw notFound(MESSAGES.chatPeerNotFound);
    // The conversation is about a listing of one of its two parties.
    if (!listingGone && listingSellerId !== buyerId && listingSellerId !== sellerId)
      throw forbidden(MESSAGES.chatRoomForbidden);

    const flags = await this.sendGuard({ senderId, peerId, roomId, content, blocked, earlier });
    const [low, high] = buyerId < sellerId ? [buyerId, sellerId] : [sellerId, buyerId];
    const row = await this.writer.write({
      campusId,
      roomId,
      lowUserId: low,
      highUserId: high,
      buyerId,
      sellerId,
      listingId,
      ...(listingGone ? { roomListingId: null } : {}),
      senderId,
      content,
      url,
      sentAt: this.ctx.clock(),
      flags: flags.join(','),
    });
    // Delivered to the room's two students only: its photo (if any) signed once for both.
    // (On disk nothing is signed: the SEND hot path takes no extra step.)
    const stored = store.toChatMessage(row);
    const live = row.url !== null && this.photos.signsUrls ? await this.photos.present(stored) : stored;
    await this.publish({ type: 'message', message: live, userIds: [low, high] });
    // The sender's own copy never carries flags (safety).
    const { flags: _flags, ...message } = live;
    // Listeners never fail the send: their errors are logged (events.ts).
    await this.ctx.domainEvents.announceCommitted('chat.messageSent', { message, recipientId: peerId });
    return message;
  }

  /** GET /api/chats/{roomId}: oldest first; 403 for others; 404 when the room has no history. */
  async history(userId: number, roomId: string, q: HistoryQuery): Promise<HistoryPage> {
    this.assertMember(userId, roomId);
    const campusId = requireCampusId();
    // A room of another campus is no room here: the same 404 as a room nobody wrote in.
    const room = await store.findRoom(this.db, roomId, campusId);
    if (!room || Number(room.message_count) === 0) throw notFound(MESSAGES.chatNoHistory);
    const limit = q.limit ?? LIMITS.chatPageDefault;
    const page = await store.listMessages(this.db, roomId, campusId, {
      after: q.after,
      before: q.before,
      limit,
    });
    const read = page.rows.map((row) => store.toChatMessage(row, userId));
    const messages = this.photos.signsUrls
      ? await Promise.all(read.map((m) => this.photos.present(m)))
      : read;
    return {
      messages: await this.messageKinds.attachCards(messages, page.rows),
      hasOlder: q.after === undefined && page.more,
      hasNewer: q.after !== undefined && page.more,
    };
  }

  /**
   * The inbox. Each last message carries its cards as history does, so the preview of a deal's
   * system line can be told to its reader ("You accepted…"), which needs the offer or meet-up.
   * With photos in a bucket, a last message that is a photo gets a fresh signed URL.
   */
  async rooms(userId: number): Promise<ChatRoomSummary[]> {
    const rooms = await store.listRooms(this.db, userId, requireCampusId(), this.thumbnailUrl);
    const withLast = rooms.filter((room) => room.summary.lastMessage !== null);
    const last = await this.messageKinds.attachCards(
      withLast.map((room) => room.summary.lastMessage as ChatMessage),
      withLast.map((room) => room.lastMessageCards),
    );
    const byRoom = new Map(withLast.map((room, i) => [room.summary.id, last[i] ?? null]));
    const summaries = rooms.map(({ summary }) =>
      summary.lastMessage
        ? { ...summary, lastMessage: byRoom.get(summary.id) ?? summary.lastMessage }
        : summary,
    );
    if (!this.photos.signsUrls) return summaries;
    return Promise.all(
      summaries.map(async (room) =>
        room.lastMessage?.url ? { ...room, lastMessage: await this.photos.present(room.lastMessage) } : room,
      ),
    );
  }

  /**
   * POST /api/chats/{roomId}/read: everything up to the latest message is read. A room of another
   * campus holds no message here, so nothing is marked and no "Seen" reaches its students.
   */
  async markRead(
    userId: number,
    roomId: string,
  ): Promise<{ roomId: string; lastReadMessageId: number | null }> {
    const [low, high] = this.assertMember(userId, roomId);
    const campusId = requireCampusId();
    let latest = await store.latestMessageId(this.db, roomId, campusId);
    // The other student must be of the campus too, or the "Seen" would cross campuses.
    if (latest !== null && !(await store.isOfCampus(this.db, low === userId ? high : low, campusId))) {
      latest = null;
    }
    if (latest !== null) {
      await store.markRead(this.db, roomId, userId, latest);
      await this.ctx.domainEvents.announceCommitted('chat.read', {
        userId,
        roomId,
        lastReadMessageId: latest,
      });
    }
    return { roomId, lastReadMessageId: latest };
  }
}
