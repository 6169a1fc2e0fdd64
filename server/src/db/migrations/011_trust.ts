import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Trust (features.md §A): a bio and an avatar on users, and the reviews of deals. `deal_id` has no
 * foreign key on purpose: the deals table belongs to 005_deals, and unordered migrations may run
 * this one first on a database that has not got it yet (the review rules check the deal instead).
 */
export function trustMigration(db: Db): Migration {
  return {
    async up(k) {
      await k.schema.alterTable('users').addColumn('bio', 'varchar(280)').execute();
      await k.schema.alterTable('users').addColumn('avatar_key', 'varchar(100)').execute();
      await k.schema.alterTable('users').addColumn('avatar_thumb_key', 'varchar(100)').execute();

      await withIdColumn(k.schema.createTable('reviews'), db.dialect)
        .addColumn('deal_id', 'integer', (c) => c.notNull())
        .addColumn('reviewer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('subject_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('stars', 'integer', (c) => c.notNull())
        .addColumn('text', 'varchar(500)', (c) => c.notNull())
        // Comma-separated REVIEW_TAGS, in their canonical order.
        .addColumn('tags', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        // Null while blind; set when both parties reviewed or the review window closed.
        .addColumn('revealed_at', epochMs)
        // Once per party per deal, enforced by the database as well as by the service.
        .addUniqueConstraint('reviews_once', ['deal_id', 'reviewer_id'])
        .execute();
      // A profile's revealed reviews, newest first, and its rating.
      await k.schema.createIndex('reviews_subject').on('reviews').columns(['subject_id', 'id']).execute();
    },
    async down(k) {
      await k.schema.dropTable('reviews').execute();
      await k.schema.alterTable('users').dropColumn('avatar_thumb_key').execute();
      await k.schema.alterTable('users').dropColumn('avatar_key').execute();
      await k.schema.alterTable('users').dropColumn('bio').execute();
    },
  };
}
