import { sql, type Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/** Campus-owned tables this migration creates: the same trigger and policy as migration 015 gives. */
const NEW_TABLES = ['move_out_plans', 'move_out_prices'] as const;

const VISIBLE =
  "(campus_id = nullif(current_setting('app.campus_id', true), '')::integer" +
  " or current_setting('app.all_campuses', true) = 'on')";

/**
 * The move-out season (features.md §H), "Hold for fall" and "Moving out":
 * - `offers.hold_until`: the pick-up day of a held offer (YYYY-MM-DD, campus time), written by deals;
 * - `listings.unlisted_at`: a listing taken off the market at its seller's move-out date (written by
 *   listings, asked by the moving-out module); browse and search leave it out;
 * - `campuses.move_out_season`: JSON {from, to}, or null (written by campuses at start-up);
 * - `move_out_plans`: one per student (the moving-out module's), `version` bumps on every change
 *   so a timer scheduled for an older plan finds it stale and does nothing;
 * - `move_out_prices`: per listing, the price before the first automatic step and the last price
 *   the steps set, so a step never goes under the floor and never overrides the seller's own price.
 */
export function holdAndMoveOutMigration(db: Db): Migration {
  const dialect = db.dialect;
  const campusColumn = (t: string) =>
    dialect === 'postgres'
      ? sql`alter table ${sql.table(t)} add column campus_id integer not null references campuses(id)`
      : sql`alter table ${sql.table(t)} add column campus_id integer not null default 0`;
  return {
    async up(k) {
      await k.schema.alterTable('offers').addColumn('hold_until', 'varchar(10)').execute();
      await k.schema.alterTable('listings').addColumn('unlisted_at', epochMs).execute();
      await k.schema.alterTable('listings').addColumn('free_from', epochMs).execute();
      await k.schema.alterTable('campuses').addColumn('move_out_season', 'text').execute();

      await withIdColumn(k.schema.createTable('move_out_plans'), dialect)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().unique().references('users.id').onDelete('cascade'),
        )
        .addColumn('date', 'varchar(10)', (c) => c.notNull())
        .addColumn('deadline_at', epochMs, (c) => c.notNull())
        .addColumn('auto_drop', 'integer', (c) => c.notNull())
        .addColumn('floor_percent', 'integer', (c) => c.notNull())
        .addColumn('then_free', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('done_at', epochMs)
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .execute();
      await withIdColumn(k.schema.createTable('move_out_prices'), dialect)
        .addColumn('listing_id', 'integer', (c) =>
          c.notNull().unique().references('listings.id').onDelete('cascade'),
        )
        .addColumn('seller_id', 'integer', (c) => c.notNull())
        .addColumn('original_cents', 'integer', (c) => c.notNull())
        .addColumn('last_auto_cents', 'integer', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        /** 1 once the seller set a price of their own after a step: the steps leave it alone. */
        .addColumn('seller_priced', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .execute();
      for (const table of NEW_TABLES) {
        await campusColumn(table).execute(k);
        if (dialect === 'postgres') {
          await sql.raw(`alter table ${table} enable row level security`).execute(k);
          await sql.raw(`alter table ${table} force row level security`).execute(k);
          await sql
            .raw(`create policy campus_isolation on ${table} using ${VISIBLE} with check ${VISIBLE}`)
            .execute(k);
        } else {
          await sql
            .raw(
              `create trigger ${table}_campus_required before insert on ${table} when new.campus_id = 0 ` +
                `begin select raise(abort, 'campus_id is required on ${table}'); end`,
            )
            .execute(k);
        }
      }
      // The campus feed: plans of one campus by deadline.
      await k.schema
        .createIndex('move_out_plans_campus_deadline')
        .on('move_out_plans')
        .columns(['campus_id', 'done_at', 'deadline_at'])
        .execute();
      await k.schema
        .createIndex('move_out_prices_seller')
        .on('move_out_prices')
        .columns(['seller_id'])
        .execute();
    },
    async down(k) {
      await k.schema.dropTable('move_out_prices').execute();
      await k.schema.dropTable('move_out_plans').execute();
      await k.schema.alterTable('campuses').dropColumn('move_out_season').execute();
      await k.schema.alterTable('listings').dropColumn('free_from').execute();
      await k.schema.alterTable('listings').dropColumn('unlisted_at').execute();
      await k.schema.alterTable('offers').dropColumn('hold_until').execute();
    },
  };
}
