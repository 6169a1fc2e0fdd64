import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

export function listingsMigration(db: Db): Migration {
  return {
    async up(k) {
      await withIdColumn(k.schema.createTable('listings'), db.dialect)
        .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('category', 'varchar(16)', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('image_key', 'varchar(100)')
        .addColumn('thumb_key', 'varchar(100)')
        .addColumn('is_sold', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema.createIndex('listings_browse').on('listings').columns(['is_sold', 'id']).execute();
      await k.schema
        .createIndex('listings_category_browse')
        .on('listings')
        .columns(['category', 'is_sold', 'id'])
        .execute();
      await k.schema.createIndex('listings_seller').on('listings').columns(['seller_id', 'id']).execute();
      // The in-process search index of each app process picks up other processes' changes by updated_at.
      await k.schema.createIndex('listings_updated').on('listings').column('updated_at').execute();
    },
    async down(k) {
      await k.schema.dropTable('listings').execute();
    },
  };
}
