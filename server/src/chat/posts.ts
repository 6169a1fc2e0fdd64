import { roomIdFor, type ChatMessage } from '@campus/contract';
import type { FastifyBaseLogger } from 'fastify';
import { requireCampusId } from '../db/campus-scope.js';
import type { DomainEvents, Trx } from '../events.js';
import type { ChatBroker } from './broker.js';
import type { MessageCards } from './message-kinds.js';
import { insertPosted, toChatMessage } from './messages-store.js';
import { findRoom, upsertRooms, type RoomTopic } from './rooms-store.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * Another module put a card or system line in a room (`ChatPosts.postInTransaction`). After
     * commit: chat delivers it live to both students on every process.
     */
    'chat.posted': { message: ChatMessage; userIds: [number, number] };
  }
}

/** A room about a listing, with its topic: the listing's seller and one buyer. */
export type PostTopic = RoomTopic & { listingId: number };

/** The room of a listing's seller and one buyer, as a topic for posting into it. */
export function roomTopic(listingId: number, sellerId: number, buyerId: number): PostTopic {
  return {
    roomId: roomIdFor(sellerId, buyerId),
    lowUserId: Math.min(sellerId, buyerId),
    highUserId: Math.max(sellerId, buyerId),
    buyerId,
    sellerId,
    listingId,
  };
}

/** A card or system line to put in a room. */
export interface ChatPost {
  topic: PostTopic;
  /** 0 = the app itself (timers, moderation). */
  senderId: number;
  kind: 'offer' | 'meetup' | 'system';
  content: string;
  at: number;
  /** The cards the message embeds, as they are now; history shows them as they are then. */
  cards?: MessageCards;
  /** Anti-scam flags (safety) of text the sender typed, e.g. a meet-up's place. */
  flags?: readonly string[];
}

/**
 * How other modules (deals, and whatever posts next) write into chat: inside their own
 * transaction, opened with the app's `DomainEvents`, so the message exists if and only if their
 * change commits; the live delivery follows after commit (`chat.posted`). The room is of the
 * campus the change runs in (the request's student, or the job's campus).
 */
export class ChatPosts {
  constructor(private readonly events: Pick<DomainEvents, 'announce'>) {}

  /**
   * Creates the pair's room when they have not chatted yet (an offer points at its room before the
   * offer's card is posted); an existing room is left as it is.
   */
  async openRoom(trx: Trx, topic: PostTopic, at: number): Promise<void> {
    await upsertRooms(trx, [
      { ...topic, messages: 0, firstAt: at, lastAt: at, campusId: requireCampusId() },
    ]).execute();
  }

  /** Messages the room holds; undefined when the room does not exist. */
  async messageCount(trx: Trx, roomId: string): Promise<number | undefined> {
    const room = await findRoom(trx, roomId, requireCampusId());
    return room ? Number(room.message_count) : undefined;
  }

  /**
   * Posts a card or system line in the caller's transaction, creating the room when the two have
   * not chatted yet, and answers the message as delivered live (with its cards).
   */
  async postInTransaction(trx: Trx, post: ChatPost): Promise<ChatMessage> {
    const { topic, cards = {} } = post;
    await upsertRooms(trx, [
      { ...topic, messages: 1, firstAt: post.at, lastAt: post.at, campusId: requireCampusId() },
    ]).execute();
    const row = await insertPosted(trx, {
      roomId: topic.roomId,
      senderId: post.senderId,
      kind: post.kind,
      content: post.content,
      listingId: topic.listingId,
      at: post.at,
      offerId: cards.offer?.id ?? null,
      meetupId: cards.meetup?.id ?? null,
      flags: post.flags ?? [],
    });
    const message: ChatMessage = {
      ...toChatMessage(row),
      ...(cards.offer ? { offer: cards.offer } : {}),
      ...(cards.meetup ? { meetup: cards.meetup } : {}),
    };
    await this.events.announce(trx, 'chat.posted', { message, userIds: [topic.lowUserId, topic.highUserId] });
    return message;
  }
}

/**
 * Delivers posted messages live once their transaction has committed. The poster answers its
 * client without waiting: the broker's Redis publish can stall for as long as Redis does (a client
 * that gives up retries and makes a second offer). The broker delivers to this process's sessions
 * before it touches Redis, and history has every message either way.
 */
export function deliverPostsLive(
  events: Pick<DomainEvents, 'afterCommit'>,
  broker: Pick<ChatBroker, 'publish'>,
  logger: Pick<FastifyBaseLogger, 'error'>,
): void {
  events.afterCommit('chat.posted', ({ message, userIds }) => {
    void Promise.resolve()
      .then(() => broker.publish({ type: 'message', message, userIds }))
      .catch((err: unknown) => {
        logger.error({ err, roomId: message.roomId }, 'chat: live delivery of a posted message failed');
      });
  });
}
