import type { NotificationType } from '@campus/contract';
import { roomTopic, type ChatPosts, type PostTopic } from '../chat/index.js';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Trx } from '../events.js';
import type { ListingRow } from '../listings/index.js';
import { offerAnswer } from './bundle-store.js';
import * as store from './store.js';

/** The card a deal message carries, as the notice about it needs it. */
export interface DealMessageCard {
  listingId: number;
  roomId: string;
  sellerId: number;
  buyerId: number;
  offerStatus?: string;
  meetup?: { id: number; status: string; startsAt: number };
}

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A deal message that tells the other student (both, when the app itself acted, senderId 0).
     * In the transaction: notifications writes the notice (centre, e-mail, push) and a confirmed
     * meet-up's reminder, so they exist only if the change commits.
     */
    'deal.messagePosted': { notice: NotificationType; card: DealMessageCard; senderId: number; body: string };
    /**
     * A deals change wrote a listing's row (status, reservation). After commit: the search index
     * and this process's hot cache follow (read then, so they see the committed row). Announced
     * before the change's messages are posted, so a student who reloads the listing on seeing the
     * card finds it already changed.
     */
    'deal.listingChanged': { listingId: number };
    /**
     * A free item's pickup (the accepted offer of 0 a claim's win created) ended without a
     * hand-off. In the transaction: claims passes the item to the next claimant in line, or closes
     * the giveaway when the giver sold it elsewhere.
     */
    'deal.pickupEnded': { listingId: number; claimId: number; claimantId: number; reason: PickupEndReason };
  }
}

/** Why a pickup ended: it lapsed, the giver released it, the claimant gave it up or did not come, or it was sold. */
export type PickupEndReason = 'LAPSED' | 'RELEASED' | 'GIVEN_UP' | 'NO_SHOW' | 'SOLD';

/** What the deals module needs from the others, wired in app.ts. */
export interface DealsDeps {
  /** Chat's door for the cards and system lines of every change. */
  chat: Pick<ChatPosts, 'openRoom' | 'postInTransaction' | 'messageCount'>;
  /** A listing's status changed: refresh the search index and the hot cache of this process. */
  listingWritten(row: ListingRow): Promise<void>;
}

/** A deals state change in progress: its transaction, and the facts it announces. */
export class DealsTx {
  /** Listings written but not announced yet, and those already announced. */
  private readonly touched = new Set<number>();
  private readonly announced = new Set<number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
    readonly db: Trx,
    readonly now: number,
    readonly postgres: boolean,
  ) {}

  /** The room of a listing's seller and one buyer, as a topic for posting into it. */
  static topic(listingId: number, sellerId: number, buyerId: number): store.RoomTopic {
    return roomTopic(listingId, sellerId, buyerId);
  }

  /** Creates the pair's room when they have not chatted yet (an offer points at it before its card). */
  openRoom(topic: PostTopic): Promise<void> {
    return this.deps.chat.openRoom(this.db, topic, this.now);
  }

  /** Messages the pair's room holds; undefined when they have no room. */
  roomMessageCount(roomId: string): Promise<number | undefined> {
    return this.deps.chat.messageCount(this.db, roomId);
  }

  /**
   * Posts a card or system message embedding the object as it now is; delivered live after
   * commit. `notice` also tells the other student (both, for the system's own changes) in the
   * notification centre, by e-mail and push, in the same transaction.
   */
  async post(
    topic: store.RoomTopic,
    m: { senderId: number; kind: 'offer' | 'meetup' | 'system'; content: string; flags?: readonly string[] },
    card: { offer?: store.OfferRow; meetup?: store.MeetupRow },
    notice?: NotificationType,
  ): Promise<void> {
    await this.announceListings();
    await this.deps.chat.postInTransaction(this.db, {
      topic,
      ...m,
      at: this.now,
      cards: {
        // A bundle's card lists its items (features.md §H).
        ...(card.offer ? { offer: await offerAnswer(this.db, this.ctx.photoStorage, card.offer) } : {}),
        ...(card.meetup ? { meetup: store.toMeetup(card.meetup) } : {}),
      },
    });
    if (!notice) return;
    await this.ctx.domainEvents.announce(this.db, 'deal.messagePosted', {
      notice,
      card: {
        listingId: topic.listingId,
        roomId: topic.roomId,
        sellerId: topic.sellerId,
        buyerId: topic.buyerId,
        offerStatus: card.offer?.status,
        meetup: card.meetup
          ? { id: card.meetup.id, status: card.meetup.status, startsAt: Number(card.meetup.starts_at) }
          : undefined,
      },
      senderId: m.senderId,
      body: m.content,
    });
  }

  /** This change writes the listing's row; the index and caches follow once it commits. */
  touchListing(id: number): void {
    if (!this.announced.has(id)) this.touched.add(id);
  }

  /** Announces the listings touched so far (before a message, and at the end of the change). */
  async announceListings(): Promise<void> {
    for (const listingId of this.touched) {
      this.announced.add(listingId);
      await this.ctx.domainEvents.announce(this.db, 'deal.listingChanged', { listingId });
    }
    this.touched.clear();
  }
}

/**
 * Runs a deals state change in one transaction of the app's DomainEvents: once it commits, the
 * listings it touched are refreshed and its messages are delivered live to both students on every
 * process (the after-commit listeners of `deal.listingChanged` and `chat.posted`).
 */
export async function inDealsTx<T>(
  ctx: AppContext,
  deps: DealsDeps,
  fn: (tx: DealsTx) => Promise<T>,
): Promise<T> {
  const result = await ctx.domainEvents.transaction(async (trx) => {
    const tx = new DealsTx(ctx, deps, trx, ctx.clock(), ctx.db.dialect === 'postgres');
    const out = await fn(tx);
    await tx.announceListings();
    return out;
  });
  // Timers enqueued in the transaction exist now: let the worker look.
  ctx.jobs.kick();
  return result;
}

/**
 * After a deals change commits, the listings it wrote are read again and handed to listings (in
 * the change's campus: the listener runs in its scope).
 */
export function followListingChanges(ctx: AppContext, deps: Pick<DealsDeps, 'listingWritten'>): void {
  ctx.domainEvents.afterCommit('deal.listingChanged', async ({ listingId }) => {
    const row = await ctx.db.kysely
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', listingId)
      .where('campus_id', '=', requireCampusId())
      .executeTakeFirst();
    if (row) await deps.listingWritten(row);
  });
}
