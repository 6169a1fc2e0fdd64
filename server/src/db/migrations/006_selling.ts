import { sql, type Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Selling and finding (features.md §B): condition and textbook fields on listings, up to 8 photos
 * per listing, favourites, saved searches, wanted posts, and the match records the notifications
 * module reads (docs/architecture.md, "Selling: match records").
 */
export function sellingMigration(db: Db): Migration {
  return {
    async up(k) {
      await k.schema.alterTable('listings').addColumn('condition', 'varchar(16)').execute();
      await k.schema.alterTable('listings').addColumn('course_code', 'varchar(16)').execute();
      await k.schema.alterTable('listings').addColumn('isbn', 'varchar(13)').execute();
      // Price sorts page by (price, id); browse by category too.
      await k.schema
        .createIndex('listings_price_browse')
        .on('listings')
        .columns(['is_sold', 'price_cents', 'id'])
        .execute();
      await k.schema
        .createIndex('listings_category_price')
        .on('listings')
        .columns(['category', 'is_sold', 'price_cents', 'id'])
        .execute();
      await k.schema.createIndex('listings_course').on('listings').columns(['course_code', 'id']).execute();
      await k.schema.createIndex('listings_isbn').on('listings').columns(['isbn', 'id']).execute();

      // listings.image_key/thumb_key stay and mirror the cover (photos[0]).
      await withIdColumn(k.schema.createTable('listing_photos'), db.dialect)
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('image_key', 'varchar(100)', (c) => c.notNull())
        .addColumn('thumb_key', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('listing_photos_listing')
        .on('listing_photos')
        .columns(['listing_id', 'position'])
        .execute();
      // Listings posted before photos existed keep their one photo as the cover.
      await sql`insert into listing_photos (listing_id, position, image_key, thumb_key, created_at)
        select id, 0, image_key, thumb_key, created_at from listings
        where image_key is not null and thumb_key is not null`.execute(k);

      await withIdColumn(k.schema.createTable('listing_saves'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addUniqueConstraint('listing_saves_unique', ['user_id', 'listing_id'])
        .execute();
      await k.schema.createIndex('listing_saves_listing').on('listing_saves').column('listing_id').execute();
      await k.schema
        .createIndex('listing_saves_user')
        .on('listing_saves')
        .columns(['user_id', 'id'])
        .execute();

      await withIdColumn(k.schema.createTable('saved_searches'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('query', 'varchar(100)', (c) => c.notNull())
        /** Comma-separated categories, '' for any. */
        .addColumn('categories', 'varchar(200)', (c) => c.notNull())
        .addColumn('price_min_cents', 'integer')
        .addColumn('price_max_cents', 'integer')
        /** Comma-separated conditions, '' for any. */
        .addColumn('conditions', 'varchar(100)', (c) => c.notNull())
        .addColumn('course_code', 'varchar(16)')
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('saved_searches_user')
        .on('saved_searches')
        .columns(['user_id', 'id'])
        .execute();

      await withIdColumn(k.schema.createTable('wanted_posts'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'varchar(120)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('category', 'varchar(16)', (c) => c.notNull())
        .addColumn('max_price_cents', 'integer')
        .addColumn('course_code', 'varchar(16)')
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('wanted_posts_open')
        .on('wanted_posts')
        .columns(['expires_at', 'id'])
        .execute();
      await k.schema
        .createIndex('wanted_posts_category')
        .on('wanted_posts')
        .columns(['category', 'id'])
        .execute();
      await k.schema.createIndex('wanted_posts_user').on('wanted_posts').columns(['user_id', 'id']).execute();

      // Match records: one per saver per listing, ever (the primary key makes "never twice" hold
      // across processes). Read by the notifications module.
      await k.schema
        .createTable('saved_search_matches')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('saved_search_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addPrimaryKeyConstraint('saved_search_matches_pk', ['user_id', 'listing_id'])
        .execute();
      await k.schema
        .createIndex('saved_search_matches_created')
        .on('saved_search_matches')
        .column('created_at')
        .execute();
      await k.schema
        .createTable('wanted_matches')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('wanted_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addPrimaryKeyConstraint('wanted_matches_pk', ['user_id', 'listing_id'])
        .execute();
      await k.schema
        .createIndex('wanted_matches_listing')
        .on('wanted_matches')
        .column('listing_id')
        .execute();
      await k.schema
        .createIndex('wanted_matches_created')
        .on('wanted_matches')
        .column('created_at')
        .execute();

      // A seller lowered the price of an AVAILABLE listing: the savers are told (notifications).
      await withIdColumn(k.schema.createTable('listing_price_drops'), db.dialect)
        .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
        .addColumn('old_price_cents', 'integer', (c) => c.notNull())
        .addColumn('new_price_cents', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('listing_price_drops_created')
        .on('listing_price_drops')
        .column('created_at')
        .execute();
    },
    async down(k) {
      for (const t of [
        'listing_price_drops',
        'wanted_matches',
        'saved_search_matches',
        'wanted_posts',
        'saved_searches',
        'listing_saves',
        'listing_photos',
      ])
        await k.schema.dropTable(t).execute();
      for (const i of [
        'listings_price_browse',
        'listings_category_price',
        'listings_course',
        'listings_isbn',
      ])
        await k.schema.dropIndex(i).execute();
      for (const c of ['condition', 'course_code', 'isbn'])
        await k.schema.alterTable('listings').dropColumn(c).execute();
    },
  };
}
