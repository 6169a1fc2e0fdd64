import { centsToDollars, type BundleItem, type DealItem, type Offer } from '@campus/contract';
import { requireCampusId } from '../db/campus-scope.js';
import { photoUrl, type PhotoLinks } from '../media/index.js';
import { toDeal, toOffer, type DealRow, type Executor, type OfferRow } from './store.js';

/**
 * Reads of bundles (features.md §H): the listings of a bundle offer and what a bundle deal sold.
 * A single-listing offer or deal has no item rows; its answers stay as §A describes them, except
 * that a deal always answers `items` (its one listing).
 */

/** The items of each bundle offer among `offerIds` (offers without items are absent). */
export async function offerItemsOf(
  db: Executor,
  links: PhotoLinks,
  offerIds: readonly number[],
): Promise<Map<number, BundleItem[]>> {
  const out = new Map<number, BundleItem[]>();
  if (offerIds.length === 0) return out;
  const rows = await db
    .selectFrom('offer_items')
    .innerJoin('listings', 'listings.id', 'offer_items.listing_id')
    .select([
      'offer_items.offer_id',
      'offer_items.listing_id',
      'offer_items.position',
      'listings.name',
      'listings.price_cents',
      'listings.thumb_key',
    ])
    .where('offer_items.offer_id', 'in', [...new Set(offerIds)])
    .where('offer_items.campus_id', '=', requireCampusId())
    .orderBy('offer_items.offer_id')
    .orderBy('offer_items.position')
    .execute();
  const campusId = requireCampusId();
  for (const r of rows) {
    const items = out.get(r.offer_id) ?? [];
    items.push({
      listingId: r.listing_id,
      listingName: r.name,
      price: centsToDollars(r.price_cents),
      thumbnailUrl: photoUrl(links, campusId, r.thumb_key),
    });
    out.set(r.offer_id, items);
  }
  return out;
}

/** The listing ids of a bundle offer in order; empty for a single-listing offer. */
export async function bundleListingIds(db: Executor, offerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('offer_items')
    .select('listing_id')
    .where('offer_id', '=', offerId)
    .where('campus_id', '=', requireCampusId())
    .orderBy('position')
    .execute();
  return rows.map((r) => r.listing_id);
}

/** An offer as answers and cards show it: a bundle's with `listingIds` and `items`. */
export function withItems(offer: Offer, items: BundleItem[] | undefined): Offer {
  if (!items || items.length === 0) return offer;
  return { ...offer, listingIds: items.map((i) => i.listingId), items };
}

/** Offer rows as answers, bundles with their items (one query for them all). */
export async function offerAnswers(
  db: Executor,
  links: PhotoLinks,
  rows: readonly OfferRow[],
): Promise<Offer[]> {
  const items = await offerItemsOf(
    db,
    links,
    rows.map((r) => r.id),
  );
  return rows.map((r) => withItems(toOffer(r), items.get(r.id)));
}

export async function offerAnswer(db: Executor, links: PhotoLinks, row: OfferRow): Promise<Offer> {
  return (await offerAnswers(db, links, [row]))[0]!;
}

/** What each deal sold: the bundle's items, or the deal's own listing. */
export async function dealItemsOf(
  db: Executor,
  deals: readonly Pick<DealRow, 'id' | 'listing_id' | 'listing_name'>[],
): Promise<Map<number, DealItem[]>> {
  const out = new Map<number, DealItem[]>();
  if (deals.length > 0) {
    const rows = await db
      .selectFrom('deal_items')
      .select(['deal_id', 'listing_id', 'listing_name'])
      .where(
        'deal_id',
        'in',
        deals.map((d) => d.id),
      )
      .where('campus_id', '=', requireCampusId())
      .orderBy('deal_id')
      .orderBy('position')
      .execute();
    for (const r of rows) {
      const items = out.get(r.deal_id) ?? [];
      items.push({ listingId: r.listing_id, listingName: r.listing_name });
      out.set(r.deal_id, items);
    }
  }
  for (const d of deals) {
    if (!out.has(d.id)) out.set(d.id, [{ listingId: d.listing_id, listingName: d.listing_name }]);
  }
  return out;
}

/** A deal as answers show it, with its items. */
export async function dealAnswer(db: Executor, row: DealRow) {
  const items = await dealItemsOf(db, [row]);
  return toDeal(row, items.get(row.id));
}
