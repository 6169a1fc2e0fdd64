import { DEALS_MESSAGES, DEAL_EVENTS } from '@campus/contract';
import type { AppContext } from '../context.js';
import type { ListingRow } from '../listings/index.js';
import { conflict } from '../http/errors.js';
import type { OffersService } from './offers.js';
import { lockReservation } from './bundle-rules.js';
import * as store from './store.js';
import { inDealsTx, type DealsDeps } from './tx.js';

/**
 * PUT /listings/sold/{id} when deals own the listing's state (features.md §A): the listings module
 * hands the toggle to this, so it runs under the listing's lock like every other deal change.
 *
 * - RESERVED → SOLD ends the reservation properly: the accepted offer CANCELLED, open meet-ups
 *   cancelled, the buyer's hand-off code gone, a system message to both in their chat (live). No
 *   deal is recorded, so there is nothing to review.
 * - SOLD through a confirmed hand-off stays SOLD: a listing carries at most one deal (also a unique
 *   index), and putting it back on sale would let a second hand-off record another.
 * - Otherwise the plain toggle: AVAILABLE ⇄ SOLD without a deal.
 */
export class SoldToggle {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
    private readonly offers: OffersService,
  ) {}

  /** The listing as it now is; undefined when it is gone or not the seller's. */
  toggle(sellerId: number, listingId: number): Promise<ListingRow | undefined> {
    return inDealsTx(this.ctx, this.deps, async (tx) => {
      const listing = await lockReservation(tx, listingId);
      if (!listing || listing.seller_id !== sellerId) return undefined;
      if (listing.status === 'SOLD') {
        const deal = await tx.db
          .selectFrom('deals')
          .select('id')
          .where((eb) =>
            eb.or([
              eb('listing_id', '=', listingId),
              // Sold in a bundle: the deal names its first listing, its items every one.
              eb(
                'id',
                'in',
                eb.selectFrom('deal_items').select('deal_id').where('deal_items.listing_id', '=', listingId),
              ),
            ]),
          )
          .executeTakeFirst();
        if (deal) throw conflict(DEALS_MESSAGES.soldDealRecorded);
      }
      if (listing.status === 'RESERVED') {
        const name = (await store.firstNames(tx.db, [sellerId])).get(sellerId) ?? 'The seller';
        await this.offers.endReservation(
          tx,
          listing,
          'CANCELLED',
          {
            senderId: sellerId,
            content: DEAL_EVENTS.reservationSoldElsewhere(name),
          },
          'SOLD',
        );
      }
      const sold = listing.status !== 'SOLD';
      tx.touchListing(listingId);
      return tx.db
        .updateTable('listings')
        .set({
          status: sold ? 'SOLD' : 'AVAILABLE',
          is_sold: sold ? 1 : 0,
          reserved_buyer_id: null,
          accepted_offer_id: null,
          updated_at: tx.now,
        })
        .where('id', '=', listingId)
        .returningAll()
        .executeTakeFirst();
    });
  }
}
