import type { ListingRow } from './store.js';

/**
 * The listing facts other modules react to (events.ts). Announced by listings (create, edit,
 * photos, delete), safety (moderation and report hiding) and deals (sold toggle, reservations).
 */
declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A student created or edited a listing's text, category or price. In the transaction:
     * selling enqueues its saved-search and wanted match job. After commit: the search index and
     * the hot cache of this process follow.
     */
    'listing.written': { row: ListingRow; change: 'created' | 'edited' };
    /**
     * Anything else about a listing changed (photos, sold or reserved, hidden or shown by
     * moderation). After commit: the search index and the hot cache follow.
     */
    'listing.changed': { row: ListingRow };
    /**
     * The seller deleted a listing. After commit: it leaves the search index and its campus's hot
     * cache.
     */
    'listing.deleted': { id: number; campusId: number };
    /**
     * An edit lowered the price of an unsold listing (already recorded in listing_price_drops). In
     * the transaction: notifications tells those who saved it, when the drop is large enough.
     */
    'listing.priceDropped': { row: ListingRow; oldCents: number };
  }
}

export {};
