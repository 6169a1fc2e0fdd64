import type { Migration } from 'kysely';

/**
 * Every column that names a stored image, indexed by itself (media/orphans.ts). The daily orphan
 * sweep asks, for each page of up to 1,000 stored objects, which of their keys some row still
 * names; without these indexes every such question read the whole of `listings`, `listing_photos`
 * and `users`. `chat_uploads.image_key` is its table's primary key already. Partial where most rows
 * name nothing (a student without an avatar, a listing without a photo).
 */
const INDEXES = [
  { name: 'listings_image_key', table: 'listings', column: 'image_key', partial: true },
  { name: 'listings_thumb_key', table: 'listings', column: 'thumb_key', partial: true },
  { name: 'listing_photos_image_key', table: 'listing_photos', column: 'image_key', partial: false },
  { name: 'listing_photos_thumb_key', table: 'listing_photos', column: 'thumb_key', partial: false },
  { name: 'users_avatar_key', table: 'users', column: 'avatar_key', partial: true },
  { name: 'users_avatar_thumb_key', table: 'users', column: 'avatar_thumb_key', partial: true },
  { name: 'chat_uploads_thumb_key', table: 'chat_uploads', column: 'thumb_key', partial: false },
] as const;

export function storedImageKeysMigration(): Migration {
  return {
    async up(k) {
      for (const index of INDEXES) {
        const create = k.schema.createIndex(index.name).on(index.table).column(index.column);
        await (index.partial ? create.where(index.column, 'is not', null) : create).execute();
      }
    },
    async down(k) {
      for (const index of INDEXES) await k.schema.dropIndex(index.name).execute();
    },
  };
}
