import { CLAIMS_LIMITS } from '@campus/contract';
import type { DomainEvents, Trx } from '../events.js';
import type { ListingRow } from './store.js';

/**
 * The writes the move-out season asks of listings (features.md §H): listings stays the one writer
 * of its table, and each write announces what changed exactly as a seller's own edit does, so an
 * automatic price step reaches savers as a PRICE_DROP through the same event and the same rules.
 * The moving-out module decides when; these decide nothing but re-check the row they change.
 */
export class SeasonWrites {
  constructor(private readonly events: DomainEvents) {}

  /** The seller's listings still on the market (AVAILABLE, not moderated, not taken off), by id. */
  availableOfSeller(db: Trx, sellerId: number): Promise<ListingRow[]> {
    return db
      .selectFrom('listings')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'AVAILABLE')
      .where('moderation', 'is', null)
      .where('unlisted_at', 'is', null)
      .orderBy('id')
      .execute();
  }

  /**
   * An automatic price step: only while the listing is AVAILABLE, on the market, and still at
   * `fromCents` (a seller's edit or sale meanwhile wins). Recorded in listing_price_drops and
   * announced as `listing.priceDropped` and `listing.written` like a manual price drop.
   */
  async lowerPrice(trx: Trx, listingId: number, fromCents: number, toCents: number, now: number) {
    const row = await trx
      .updateTable('listings')
      .set({ price_cents: toCents, updated_at: now })
      .where('id', '=', listingId)
      .where('price_cents', '=', fromCents)
      .where('status', '=', 'AVAILABLE')
      .where('moderation', 'is', null)
      .where('unlisted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row || toCents >= fromCents) return row;
    await trx
      .insertInto('listing_price_drops')
      .values({ listing_id: row.id, old_price_cents: fromCents, new_price_cents: toCents, created_at: now })
      .execute();
    await this.events.announce(trx, 'listing.priceDropped', { row, oldCents: fromCents });
    await this.events.announce(trx, 'listing.written', { row, change: 'edited' });
    return row;
  }

  /** Takes an AVAILABLE listing off the market: browse and search leave it out; it still opens by id. */
  async takeOffMarket(trx: Trx, listingId: number, now: number): Promise<ListingRow | undefined> {
    const row = await trx
      .updateTable('listings')
      .set({ unlisted_at: now, updated_at: now })
      .where('id', '=', listingId)
      .where('status', '=', 'AVAILABLE')
      .where('unlisted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row) await this.events.announce(trx, 'listing.changed', { row });
    return row;
  }

  /**
   * thenFree (features.md §H): at the move-out date an unsold priced listing becomes a free item
   * whose claim window (the default hours) starts now. Announced like any change (index, cache).
   */
  async turnFree(trx: Trx, listingId: number, now: number): Promise<ListingRow | undefined> {
    const row = await trx
      .updateTable('listings')
      .set({
        price_cents: 0,
        claim_window_hours: CLAIMS_LIMITS.claimWindowHoursDefault,
        free_from: now,
        updated_at: now,
      })
      .where('id', '=', listingId)
      .where('status', '=', 'AVAILABLE')
      .where('unlisted_at', 'is', null)
      .where('price_cents', '>', 0)
      .returningAll()
      .executeTakeFirst();
    if (row) await this.events.announce(trx, 'listing.changed', { row });
    return row;
  }

  /**
   * A seller's move-out plan changed: their listings' answers ("Must go by") change, so the hot
   * cache and index follow (after commit, like any listing change).
   */
  async sellerChanged(db: Trx, sellerId: number): Promise<void> {
    const rows = await db.selectFrom('listings').selectAll().where('seller_id', '=', sellerId).execute();
    for (const row of rows) await this.events.announceCommitted('listing.changed', { row });
  }
}
