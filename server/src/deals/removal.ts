import { DEAL_EVENTS, parseRoomId } from '@campus/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import { freeBundleListings } from './bundle-rules.js';
import { JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE } from './offers.js';
import type * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps } from './tx.js';

/**
 * A moderator removing a listing (safety) ends every deal on it in the removal's own transaction:
 * once the listing is gone nobody can offer, meet or hand off, so nothing may stay reserved or
 * pending either. Pending and accepted offers become CANCELLED, open meet-ups CANCELLED, the listing
 * AVAILABLE again (a restored listing starts over), and each room that had a deal going gets one
 * system line, delivered live after the commit like every deals change.
 *
 * It runs as work of the listing's campus: safety calls it in the scope of that campus (its
 * moderator's request), and the rows it reads and writes are that campus's.
 */
export class ListingRemoval {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
  ) {}

  /** Runs `write` (the moderator's own changes) and the deals' ending in one transaction. */
  run<T>(listingId: number, write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return inDealsTx(this.ctx, this.deps, async (tx) => {
      // DomainEvents types its transaction as the Kysely handle it is; the callback's type is safety's.
      const out = await write(tx.db as Transaction<Database>);
      // Touched first: the listing is refreshed before the rooms' lines are delivered live.
      tx.touchListing(listingId);
      await this.endDeals(tx, listingId);
      return out;
    });
  }

  private async endDeals(tx: DealsTx, listingId: number): Promise<void> {
    const listing = await tx.db
      .selectFrom('listings')
      .select(['id', 'seller_id', 'status'])
      .where('id', '=', listingId)
      .where('campus_id', '=', requireCampusId())
      .executeTakeFirst();
    if (!listing) return;
    if (listing.status === 'RESERVED') {
      await tx.db
        .updateTable('listings')
        .set({ status: 'AVAILABLE', reserved_buyer_id: null, accepted_offer_id: null, updated_at: tx.now })
        .where('id', '=', listingId)
        .execute();
    }
    const offers = await tx.db
      .updateTable('offers')
      .set({ status: 'CANCELLED', updated_at: tx.now })
      .where((eb) =>
        eb.or([
          eb('listing_id', '=', listingId),
          // Bundles holding it end too; an accepted one frees its other listings.
          eb(
            'id',
            'in',
            eb.selectFrom('offer_items').select('offer_id').where('offer_items.listing_id', '=', listingId),
          ),
        ]),
      )
      .where('status', 'in', ['PENDING', 'ACCEPTED'])
      .returningAll()
      .execute();
    for (const offer of offers) {
      await freeBundleListings(tx, offer.id);
      // Their timers would find nothing to do; cancelled, they do not run at all.
      await this.ctx.jobs.cancel(tx.db, `${JOB_OFFER_EXPIRE}:${offer.id}`);
      await this.ctx.jobs.cancel(tx.db, `${JOB_RESERVATION_LAPSE}:${offer.id}`);
    }
    const meetups = await tx.db
      .updateTable('meetups')
      .set({ status: 'CANCELLED', updated_at: tx.now })
      .where('listing_id', '=', listingId)
      .where('status', 'in', ['PROPOSED', 'CONFIRMED'])
      .returningAll()
      .execute();
    // One line per room, embedding that room's cancelled offer and meet-up so the cards update.
    const rooms = new Map<string, { offer?: store.OfferRow; meetup?: store.MeetupRow }>();
    for (const offer of offers) rooms.set(offer.room_id, { ...rooms.get(offer.room_id), offer });
    for (const meetup of meetups) rooms.set(meetup.room_id, { ...rooms.get(meetup.room_id), meetup });
    for (const [roomId, card] of rooms) {
      const pair = parseRoomId(roomId);
      if (!pair) continue;
      const buyerId = pair[0] === listing.seller_id ? pair[1] : pair[0];
      await tx.post(
        DealsTx.topic(listingId, listing.seller_id, buyerId),
        { senderId: 0, kind: 'system', content: DEAL_EVENTS.listingRemoved() },
        card,
      );
    }
  }
}
