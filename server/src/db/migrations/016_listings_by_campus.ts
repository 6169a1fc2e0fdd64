import type { Migration } from 'kysely';

/**
 * Browse pages of one campus (features.md §E). Every browse names its campus, and with several
 * campuses SQLite's planner (with statistics) took `listings_campus_created` for newest-first and
 * price pages: every listing of the campus read and sorted for 20 of them. The browse indexes lead
 * with the campus instead, so a page is a walk of that campus's part of the index, as it was of the
 * whole table with one campus. The old indexes served only those pages (listings/store.ts browse);
 * the (course_code, id) and (isbn, id) ones stay, as selective as before.
 */
const REPLACED = [
  { old: 'listings_browse', name: 'listings_campus_browse', columns: ['is_sold', 'id'] },
  {
    old: 'listings_category_browse',
    name: 'listings_campus_category',
    columns: ['category', 'is_sold', 'id'],
  },
  { old: 'listings_price_browse', name: 'listings_campus_price', columns: ['is_sold', 'price_cents', 'id'] },
  {
    old: 'listings_category_price',
    name: 'listings_campus_category_price',
    columns: ['category', 'is_sold', 'price_cents', 'id'],
  },
  {
    old: 'listings_course_price',
    name: 'listings_campus_course_price',
    columns: ['course_code', 'is_sold', 'price_cents', 'id'],
  },
] as const;

export function listingsByCampusMigration(): Migration {
  return {
    async up(k) {
      for (const index of REPLACED) {
        await k.schema
          .createIndex(index.name)
          .on('listings')
          .columns(['campus_id', ...index.columns])
          .execute();
        await k.schema.dropIndex(index.old).execute();
      }
    },
    async down(k) {
      for (const index of REPLACED) {
        await k.schema
          .createIndex(index.old)
          .on('listings')
          .columns([...index.columns])
          .execute();
        await k.schema.dropIndex(index.name).execute();
      }
    },
  };
}
