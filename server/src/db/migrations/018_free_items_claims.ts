import type { CreateTableBuilder, Kysely, Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';
import { campusOwnTable } from './015_campuses.js';

/**
 * Free items and claims (features.md §H).
 *
 * - `listings.claim_window_hours`: set on a free listing only (its price is 0); the listings
 *   module writes it when the item is posted.
 * - `offers.claim_id`: the accepted offer of 0 a claim's win creates (the pickup is a reservation
 *   like any other, docs/decisions.md "Free items"); deals writes it.
 * - `claims`: one row per student per free listing; written by the claims module only.
 * - `claim_draws`: every decision of a giveaway (chosen, drawn, drawn on its own): who decided,
 *   among which claims, the order drawn, who was skipped; append-only, for audit.
 * Both new tables are campus owned (015's trigger and row-level security).
 */
export function freeItemsClaimsMigration(db: Db): Migration {
  const dialect = db.dialect;
  const withCampus = <T extends string>(t: CreateTableBuilder<T, 'id'>) =>
    dialect === 'postgres'
      ? t.addColumn('campus_id', 'integer', (c) => c.notNull().references('campuses.id'))
      : t.addColumn('campus_id', 'integer', (c) => c.notNull().defaultTo(0));
  return {
    async up(k: Kysely<unknown>) {
      await k.schema.alterTable('listings').addColumn('claim_window_hours', 'integer').execute();
      await k.schema.alterTable('offers').addColumn('claim_id', 'integer').execute();

      await withCampus(withIdColumn(k.schema.createTable('claims'), dialect))
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('claimant_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('position', 'integer')
        .addColumn('won_at', epochMs)
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .addUniqueConstraint('claims_one_per_student', ['listing_id', 'claimant_id'])
        .execute();
      await k.schema
        .createIndex('claims_claimant_status')
        .on('claims')
        .columns(['claimant_id', 'status'])
        .execute();
      await k.schema
        .createIndex('claims_claimant_won')
        .on('claims')
        .columns(['claimant_id', 'won_at'])
        .execute();
      await campusOwnTable(k, dialect, 'claims');

      await withCampus(withIdColumn(k.schema.createTable('claim_draws'), dialect))
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('method', 'varchar(16)', (c) => c.notNull())
        .addColumn('by_id', 'integer')
        .addColumn('pool_ids', 'text', (c) => c.notNull())
        .addColumn('order_ids', 'text', (c) => c.notNull())
        .addColumn('skipped_ids', 'text', (c) => c.notNull())
        .addColumn('winner_claim_id', 'integer')
        .addColumn('at', epochMs, (c) => c.notNull())
        .execute();
      // One decision per giveaway: a second, concurrent choose or draw finds it taken.
      await k.schema
        .createIndex('claim_draws_listing')
        .unique()
        .on('claim_draws')
        .column('listing_id')
        .execute();
      await campusOwnTable(k, dialect, 'claim_draws');
    },
    async down(k: Kysely<unknown>) {
      await k.schema.dropTable('claim_draws').execute();
      await k.schema.dropTable('claims').execute();
      await k.schema.alterTable('offers').dropColumn('claim_id').execute();
      await k.schema.alterTable('listings').dropColumn('claim_window_hours').execute();
    },
  };
}
