import { parseRoomId, roomIdFor, type ChatMessage, type NotificationType } from '@campus/contract';
import type { Transaction } from 'kysely';
import type { ChatEvent } from '../chat/broker.js';
import { toChatMessage } from '../chat/store.js';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import type { ListingRow } from '../listings/store.js';
import { announceDealMessage } from '../notifications/deal-notices.js';
import * as store from './store.js';

/** What the deals module needs from the others, wired in index.ts. */
export interface DealsDeps {
  publish(event: ChatEvent): Promise<void>;
  /** A listing's status changed: refresh the search index and the hot cache of this process. */
  listingWritten(row: ListingRow): Promise<void>;
}

/** A deals state change in progress: its transaction, and what to announce once it commits. */
export class DealsTx {
  readonly messages: ChatMessage[] = [];
  readonly listings = new Set<number>();

  constructor(
    private readonly ctx: AppContext,
    readonly db: Transaction<Database>,
    readonly now: number,
    readonly postgres: boolean,
  ) {}

  /** The room of a listing's seller and one buyer, as a topic for posting into it. */
  static topic(listingId: number, sellerId: number, buyerId: number): store.RoomTopic {
    return {
      roomId: roomIdFor(sellerId, buyerId),
      lowUserId: Math.min(sellerId, buyerId),
      highUserId: Math.max(sellerId, buyerId),
      buyerId,
      sellerId,
      listingId,
    };
  }

  /**
   * Posts a card or system message embedding the object as it now is; delivered after commit.
   * `notice` also tells the other student (both, for the system's own changes) in the
   * notification centre, by e-mail and push, in the same transaction.
   */
  async post(
    topic: store.RoomTopic,
    m: { senderId: number; kind: 'offer' | 'meetup' | 'system'; content: string; flags?: readonly string[] },
    card: { offer?: store.OfferRow; meetup?: store.MeetupRow },
    notice?: NotificationType,
  ): Promise<void> {
    const row = await store.insertEventMessage(this.db, topic, {
      ...m,
      offerId: card.offer?.id,
      meetupId: card.meetup?.id,
      at: this.now,
    });
    this.messages.push({
      ...toChatMessage(row),
      ...(card.offer ? { offer: store.toOffer(card.offer) } : {}),
      ...(card.meetup ? { meetup: store.toMeetup(card.meetup) } : {}),
    });
    if (!notice) return;
    await announceDealMessage(
      this.ctx,
      this.db,
      notice,
      {
        listingId: topic.listingId,
        roomId: topic.roomId,
        sellerId: topic.sellerId,
        buyerId: topic.buyerId,
        offerStatus: card.offer?.status,
        meetup: card.meetup
          ? { id: card.meetup.id, status: card.meetup.status, startsAt: Number(card.meetup.starts_at) }
          : undefined,
      },
      m.senderId,
      m.content,
    );
  }

  touchListing(id: number): void {
    this.listings.add(id);
  }
}

/**
 * Runs a deals state change in one transaction; after it commits, refreshes the listings it
 * touched and delivers its messages live to both students on every process (the chat broker).
 */
export async function inDealsTx<T>(
  ctx: AppContext,
  deps: DealsDeps,
  fn: (tx: DealsTx) => Promise<T>,
): Promise<T> {
  let done: DealsTx | undefined;
  const result = await ctx.db.kysely.transaction().execute(async (trx) => {
    const tx = new DealsTx(ctx, trx, ctx.clock(), ctx.db.dialect === 'postgres');
    const out = await fn(tx);
    done = tx;
    return out;
  });
  const tx = done!;
  // Timers enqueued in the transaction exist now: let the worker look.
  ctx.jobs.kick();
  for (const id of tx.listings) {
    const row = await ctx.db.kysely
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row) await deps.listingWritten(row);
  }
  // The change is committed: answer now. Live delivery goes through the chat broker, whose Redis
  // publish can stall for as long as Redis does; the request must not wait for it (a client that
  // gives up retries and makes a second offer). The broker delivers to this process's sessions
  // before it touches Redis, and history has every message either way.
  for (const message of tx.messages) {
    const pair = parseRoomId(message.roomId);
    if (!pair) continue;
    void Promise.resolve()
      .then(() => deps.publish({ type: 'message', message, userIds: pair }))
      .catch((err: unknown) => {
        ctx.logger.error({ err, roomId: message.roomId }, 'deals: live delivery failed');
      });
  }
  return result;
}
