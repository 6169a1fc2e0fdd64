import { BUNDLE_MESSAGES, DEALS_MESSAGES } from '@campus/contract';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { bundleListingIds } from './bundle-store.js';
import * as store from './store.js';
import type { DealsTx } from './tx.js';

/**
 * Rules shared by single-listing offers and bundles (features.md §H "Bundles"): what a reservation
 * of several listings means for each of them.
 */

/**
 * Declines every PENDING offer on any of `listingIds`: single-listing offers and bundles holding
 * one of them. The caller posts the change in each offer's room and cancels its expiry.
 */
export function declinePendingOn(tx: DealsTx, listingIds: readonly number[]): Promise<store.OfferRow[]> {
  return tx.db
    .updateTable('offers')
    .set({ status: 'DECLINED', updated_at: tx.now })
    .where('status', '=', 'PENDING')
    .where((eb) =>
      eb.or([
        eb('listing_id', 'in', [...listingIds]),
        eb(
          'id',
          'in',
          eb
            .selectFrom('offer_items')
            .select('offer_id')
            .where('offer_items.listing_id', 'in', [...listingIds]),
        ),
      ]),
    )
    .returningAll()
    .execute();
}

/**
 * The reservation of a bundle ended (release, lapse, sold toggle, removal): every listing still
 * reserved by it is AVAILABLE again. Nothing for a single-listing offer (its listing is the
 * caller's, already written).
 */
export async function freeBundleListings(tx: DealsTx, offerId: number): Promise<void> {
  const rows = await tx.db
    .updateTable('listings')
    .set({ status: 'AVAILABLE', reserved_buyer_id: null, accepted_offer_id: null, updated_at: tx.now })
    .where('accepted_offer_id', '=', offerId)
    .where('status', '=', 'RESERVED')
    .returning('id')
    .execute();
  for (const r of rows) tx.touchListing(r.id);
}

/** A bundle offer and its listings, locked (ascending ids, so two bundle changes never deadlock). */
export interface LockedBundle {
  offer: store.OfferRow;
  /** In the buyer's order; a listing a moderator removed is missing. */
  listings: store.DealListing[];
  missing: number[];
  sellerId: number;
}

/**
 * Locks the listings of bundle offer `offerId` and reads the offer again under the locks, for one
 * of its two students; 404 / 403 otherwise. Undefined when the offer is not a bundle.
 */
export async function lockBundle(
  tx: DealsTx,
  userId: number,
  offerId: number,
): Promise<LockedBundle | undefined> {
  const first = await store.findOffer(tx.db, offerId);
  if (!first) throw notFound(DEALS_MESSAGES.offerNotFound);
  const ids = await bundleListingIds(tx.db, offerId);
  if (ids.length === 0) return undefined;
  const locked = await lockListings(tx, ids);
  const offer = (await store.findOffer(tx.db, offerId))!;
  const lead = locked.get(offer.listing_id);
  // The seller of the bundle: every listing has the same one (checked when it was made).
  const sellerId = lead?.seller_id ?? [...locked.values()][0]?.seller_id;
  if (sellerId === undefined) throw notFound(DEALS_MESSAGES.listingNotFound);
  if (userId !== offer.buyer_id && userId !== sellerId) throw forbidden(DEALS_MESSAGES.offerNotYours);
  return {
    offer,
    listings: ids.flatMap((id) => locked.get(id) ?? []),
    missing: ids.filter((id) => !locked.has(id)),
    sellerId,
  };
}

/** Locks listings in ascending id order; those not found (removed, unknown, other campus) are absent. */
export async function lockListings(
  tx: DealsTx,
  ids: readonly number[],
): Promise<Map<number, store.DealListing>> {
  const out = new Map<number, store.DealListing>();
  for (const id of [...ids].sort((a, b) => a - b)) {
    const listing = await store.lockListing(tx.db, id, tx.postgres);
    if (listing) out.set(id, listing);
  }
  return out;
}

/** 409 naming the first listing of the bundle that is no longer AVAILABLE. */
export function assertAllAvailable(bundle: Pick<LockedBundle, 'listings' | 'missing'>): void {
  if (bundle.missing.length > 0) throw conflict(BUNDLE_MESSAGES.listingMissing);
  const taken = bundle.listings.find((l) => l.status !== 'AVAILABLE');
  if (taken) throw conflict(BUNDLE_MESSAGES.notAvailable(taken.name));
}

/**
 * Locks a listing for a change to its reservation. A listing reserved by a bundle is locked with
 * every listing of the bundle, in ascending id order like an accept, so a release and a hand-off
 * entered through two different listings of one bundle take turns instead of deadlocking
 * (PostgreSQL; SQLite has one writer). Undefined when the listing is not found.
 */
export async function lockReservation(
  tx: DealsTx,
  listingId: number,
): Promise<store.DealListing | undefined> {
  if (!tx.postgres) return store.lockListing(tx.db, listingId, false);
  const seen = await store.findListing(tx.db, listingId);
  const ids = seen?.accepted_offer_id ? await bundleListingIds(tx.db, seen.accepted_offer_id) : [];
  if (!ids.includes(listingId)) return store.lockListing(tx.db, listingId, true);
  return (await lockListings(tx, ids)).get(listingId);
}
