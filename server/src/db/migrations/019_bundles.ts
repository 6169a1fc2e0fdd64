import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../connection.js';
import { APP_ROLE } from './015_campuses.js';

/**
 * Bundles (features.md §H): one offer for several listings of one seller, and the deal it becomes.
 *
 * - `offer_items`: the listings of a bundle offer, in the buyer's order. The offer row keeps the
 *   first one as its `listing_id` (its lead), so every single-listing path (expiry, lapse, the room's
 *   topic) works on a bundle unchanged. A single-listing offer has no rows here.
 * - `deal_items`: what a bundle deal sold, names kept like `deals.listing_name` (a deal outlives its
 *   listings). A single-listing deal has no rows: its one item is the deal's own listing.
 *
 * Both are campus-owned like every table of 015: `campus_id` required (trigger on SQLite, NOT NULL
 * on PostgreSQL) and the row-level security policy on PostgreSQL.
 */
const TABLES = ['offer_items', 'deal_items'] as const;

const VISIBLE =
  "(campus_id = nullif(current_setting('app.campus_id', true), '')::integer" +
  " or current_setting('app.all_campuses', true) = 'on')";

export function bundlesMigration(db: Db): Migration {
  const postgres = db.dialect === 'postgres';
  return {
    async up(k) {
      const campusColumn = 'integer';
      await k.schema
        .createTable('offer_items')
        .addColumn('campus_id', campusColumn, (c) =>
          postgres ? c.notNull().references('campuses.id') : c.notNull().defaultTo(0),
        )
        .addColumn('offer_id', 'integer', (c) => c.notNull().references('offers.id'))
        .addColumn('listing_id', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('offer_items_pk', ['offer_id', 'listing_id'])
        .execute();
      // Offers on a listing, bundles included (GET /listings/{id}/offers, declines on accept).
      await k.schema.createIndex('offer_items_listing').on('offer_items').columns(['listing_id']).execute();
      await k.schema
        .createTable('deal_items')
        .addColumn('campus_id', campusColumn, (c) =>
          postgres ? c.notNull().references('campuses.id') : c.notNull().defaultTo(0),
        )
        .addColumn('deal_id', 'integer', (c) => c.notNull().references('deals.id'))
        .addColumn('listing_id', 'integer', (c) => c.notNull())
        .addColumn('listing_name', 'varchar(120)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('deal_items_pk', ['deal_id', 'listing_id'])
        .execute();
      // A listing is sold once: one deal item per listing.
      await k.schema
        .createIndex('deal_items_listing')
        .on('deal_items')
        .columns(['listing_id'])
        .unique()
        .execute();
      for (const table of TABLES) {
        if (postgres) await enableRowSecurity(k, table);
        else
          await sql
            .raw(
              `create trigger ${table}_campus_required before insert on ${table} when new.campus_id = 0 ` +
                `begin select raise(abort, 'campus_id is required on ${table}'); end`,
            )
            .execute(k);
      }
    },
    async down(k) {
      for (const table of TABLES) {
        if (!postgres) await sql.raw(`drop trigger if exists ${table}_campus_required`).execute(k);
        await k.schema.dropTable(table).execute();
      }
    },
  };
}

async function enableRowSecurity(k: Kysely<unknown>, table: string): Promise<void> {
  await sql.raw(`alter table ${table} enable row level security`).execute(k);
  await sql.raw(`alter table ${table} force row level security`).execute(k);
  await sql
    .raw(`create policy campus_isolation on ${table} using ${VISIBLE} with check ${VISIBLE}`)
    .execute(k);
  // The app's role (015) reads and writes every table; granted here too in case this database's
  // default privileges were set by another role.
  await sql
    .raw(
      `do $$ begin
  if exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
    grant select, insert, update, delete on ${table} to ${APP_ROLE};
  end if;
end $$`,
    )
    .execute(k);
}
