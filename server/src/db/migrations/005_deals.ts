import { sql, type Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Deals (features.md §A): listing status and reservation, offers, meet-ups (with no-show reports),
 * confirmed deals, and chat message kinds.
 *
 * The rules that must hold across processes are constraints, not only checks in code:
 * - one PENDING offer per buyer per listing and one ACCEPTED offer per listing (partial unique
 *   indexes, supported by SQLite and PostgreSQL alike);
 * - one open (PROPOSED or CONFIRMED) meet-up per room and listing;
 * - one deal per accepted offer.
 */
export function dealsMigration(db: Db): Migration {
  return {
    async up(k) {
      // AVAILABLE | RESERVED | SOLD. is_sold stays and always equals (status = 'SOLD').
      await k.schema
        .alterTable('listings')
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('AVAILABLE'))
        .execute();
      await k.schema.alterTable('listings').addColumn('reserved_buyer_id', 'integer').execute();
      await k.schema.alterTable('listings').addColumn('accepted_offer_id', 'integer').execute();
      await sql`update listings set status = 'SOLD' where is_sold = 1`.execute(k);

      await withIdColumn(k.schema.createTable('offers'), db.dialect)
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('room_id', 'varchar(40)', (c) =>
          c.notNull().references('chat_rooms.id').onDelete('cascade'),
        )
        .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** Who made this offer: the buyer, or the seller for a counter. */
        .addColumn('by_id', 'integer', (c) => c.notNull())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .addColumn('accepted_at', epochMs)
        // The reservation's hand-off code lives on the accepted offer: a new reservation is a new
        // offer, so a new code and a fresh count of wrong tries.
        .addColumn('handoff_code', 'varchar(4)')
        .addColumn('handoff_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await k.schema.createIndex('offers_listing').on('offers').columns(['listing_id', 'id']).execute();
      await k.schema.createIndex('offers_room').on('offers').columns(['room_id', 'id']).execute();
      await k.schema
        .createIndex('offers_one_pending')
        .on('offers')
        .columns(['listing_id', 'buyer_id'])
        .unique()
        .where(sql.ref('status'), '=', 'PENDING')
        .execute();
      await k.schema
        .createIndex('offers_one_accepted')
        .on('offers')
        .column('listing_id')
        .unique()
        .where(sql.ref('status'), '=', 'ACCEPTED')
        .execute();

      await withIdColumn(k.schema.createTable('meetups'), db.dialect)
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('room_id', 'varchar(40)', (c) =>
          c.notNull().references('chat_rooms.id').onDelete('cascade'),
        )
        .addColumn('proposer_id', 'integer', (c) => c.notNull())
        .addColumn('spot_id', 'varchar(40)')
        /** The spot's name at proposal time, or the typed place. */
        .addColumn('place', 'varchar(120)', (c) => c.notNull())
        .addColumn('starts_at', epochMs, (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        /** NO_SHOW: the student reported as absent, and who reported them. */
        .addColumn('reported_user_id', 'integer')
        .addColumn('reported_by_id', 'integer')
        .execute();
      await k.schema.createIndex('meetups_room').on('meetups').columns(['room_id', 'id']).execute();
      await k.schema
        .createIndex('meetups_one_open')
        .on('meetups')
        .columns(['room_id', 'listing_id'])
        .unique()
        .where(sql.ref('status'), 'in', ['PROPOSED', 'CONFIRMED'])
        .execute();
      // Reliability counts no-shows reported against a student.
      await k.schema.createIndex('meetups_reported').on('meetups').column('reported_user_id').execute();

      await withIdColumn(k.schema.createTable('deals'), db.dialect)
        // No foreign key: a deal outlives its listing (listing_name keeps what was sold).
        .addColumn('listing_id', 'integer', (c) => c.notNull())
        .addColumn('listing_name', 'varchar(120)', (c) => c.notNull())
        .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('completed_at', epochMs, (c) => c.notNull())
        .addColumn('offer_id', 'integer', (c) => c.unique())
        .execute();
      await k.schema.createIndex('deals_seller').on('deals').columns(['seller_id', 'id']).execute();
      await k.schema.createIndex('deals_buyer').on('deals').columns(['buyer_id', 'id']).execute();

      // 'text' | 'offer' | 'meetup' | 'system'; offer/meetup messages point at their object.
      await k.schema
        .alterTable('chat_messages')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('text'))
        .execute();
      await k.schema.alterTable('chat_messages').addColumn('offer_id', 'integer').execute();
      await k.schema.alterTable('chat_messages').addColumn('meetup_id', 'integer').execute();
    },
    async down(k) {
      await k.schema.alterTable('chat_messages').dropColumn('meetup_id').execute();
      await k.schema.alterTable('chat_messages').dropColumn('offer_id').execute();
      await k.schema.alterTable('chat_messages').dropColumn('kind').execute();
      await k.schema.dropTable('deals').execute();
      await k.schema.dropTable('meetups').execute();
      await k.schema.dropTable('offers').execute();
      await k.schema.alterTable('listings').dropColumn('accepted_offer_id').execute();
      await k.schema.alterTable('listings').dropColumn('reserved_buyer_id').execute();
      await k.schema.alterTable('listings').dropColumn('status').execute();
    },
  };
}
