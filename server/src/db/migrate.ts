import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connection.js';
import { accountsMigration } from './migrations/001_accounts.js';
import { listingsMigration } from './migrations/002_listings.js';
import { chatMigration } from './migrations/003_chat.js';

/** Migrations are plain modules bundled with the server, so the built app needs no migration folder. */
const migrations: Record<string, (db: Db) => Migration> = {
  '001_accounts': accountsMigration,
  '002_listings': listingsMigration,
  '003_chat': chatMigration,
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(db)])),
  };
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
