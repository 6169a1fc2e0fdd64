import type { Migration } from 'kysely';
import { epochMs } from '../columns.js';

/**
 * Freshness (features.md §H): a listing stays listed until `expires_at` (posting or renewal plus
 * LISTING_DAYS). The column is nullable because the length of the period is configuration, which a
 * migration does not read: existing listings get `expires_at` at the first start-up after the
 * upgrade (listings/freshness-jobs.ts, `startFreshPeriods`), which also files their expiry notices.
 * Until then a NULL counts as "not expired", so nothing disappears during the upgrade.
 */
export function listingFreshnessMigration(): Migration {
  return {
    async up(k) {
      await k.schema.alterTable('listings').addColumn('expires_at', epochMs).execute();
      // The start-up pass finds listings without a period without reading the whole table.
      await k.schema.createIndex('listings_expires').on('listings').column('expires_at').execute();
    },
    async down(k) {
      await k.schema.dropIndex('listings_expires').execute();
      await k.schema.alterTable('listings').dropColumn('expires_at').execute();
    },
  };
}
