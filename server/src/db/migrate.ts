import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { acrossCampuses } from './campus-scope.js';
import type { Db } from './connection.js';
import { accountsMigration } from './migrations/001_accounts.js';
import { listingsMigration } from './migrations/002_listings.js';
import { chatMigration } from './migrations/003_chat.js';
import { sellingMigration } from './migrations/006_selling.js';
import { hardeningMigration } from './migrations/004_hardening.js';
import { safetyMigration } from './migrations/007_safety.js';
import { dealsMigration } from './migrations/005_deals.js';
import { mediaVariantsMigration } from './migrations/009_media_variants.js';
import { trustMigration } from './migrations/011_trust.js';
import { chatHardeningMigration } from './migrations/010_chat_hardening.js';
import { notificationsMigration } from './migrations/008_notifications.js';
import { coursePriceIndexMigration } from './migrations/012_course_price_index.js';
import { jobLanesMigration } from './migrations/013_job_lanes.js';
import { dealsIntegrityMigration } from './migrations/014_deals_integrity.js';
import { campusesMigration } from './migrations/015_campuses.js';
import { listingsByCampusMigration } from './migrations/016_listings_by_campus.js';
import { listingFreshnessMigration } from './migrations/017_listing_freshness.js';
import { freeItemsClaimsMigration } from './migrations/018_free_items_claims.js';
import { bundlesMigration } from './migrations/019_bundles.js';
import { holdAndMoveOutMigration } from './migrations/020_hold_and_move_out.js';
import { universitySignInMigration } from './migrations/021_university_sign_in.js';
import { searchInPostgresMigration } from './migrations/022_search_in_postgres.js';
import { storedImageKeysMigration } from './migrations/023_stored_image_keys.js';
import { searchWordsOfTextMigration } from './migrations/024_search_words_of_text.js';

/** Migrations are plain modules bundled with the server, so the built app needs no migration folder. */
const migrations: Record<string, (db: Db) => Migration> = {
  '001_accounts': accountsMigration,
  '002_listings': listingsMigration,
  '003_chat': chatMigration,
  '006_selling': sellingMigration,
  '004_hardening': hardeningMigration,
  '009_media_variants': mediaVariantsMigration,
  '011_trust': trustMigration,
  '007_safety': safetyMigration,
  '008_notifications': notificationsMigration,
  '005_deals': dealsMigration,
  '010_chat_hardening': chatHardeningMigration,
  '012_course_price_index': coursePriceIndexMigration,
  '013_job_lanes': jobLanesMigration,
  '014_deals_integrity': dealsIntegrityMigration,
  '015_campuses': campusesMigration,
  '016_listings_by_campus': listingsByCampusMigration,
  '017_listing_freshness': listingFreshnessMigration,
  '018_free_items_claims': freeItemsClaimsMigration,
  '019_bundles': bundlesMigration,
  '020_hold_and_move_out': holdAndMoveOutMigration,
  '021_university_sign_in': universitySignInMigration,
  '022_search_in_postgres': searchInPostgresMigration,
  '023_stored_image_keys': storedImageKeysMigration,
  '024_search_words_of_text': searchWordsOfTextMigration,
};

/** Migrations rewrite tables whole, across every campus (db/campus-scope.ts). */
export function migrateToLatest(db: Db): Promise<string[]> {
  return acrossCampuses(() => migrateAll(db));
}

/** Migrates up to and including `name` only (upgrade tests start from an older schema). */
export function migrateTo(db: Db, name: string): Promise<string[]> {
  return acrossCampuses(() => migrateAll(db, name));
}

async function migrateAll(db: Db, target?: string): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(db)])),
  };
  // Features land in parallel with numbered migrations; a database that already ran a later one
  // must still accept an earlier-numbered one that arrives afterwards.
  const migrator = new Migrator({ db: db.kysely, provider, allowUnorderedMigrations: true });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
