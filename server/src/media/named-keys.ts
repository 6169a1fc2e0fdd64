import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Every column that names a stored image, as `[table, column]`. Photos and thumbnails are named
 * by their own keys; variants by their photo's (no row names a variant). Chat messages name their
 * photo by URL, always one of the sender's `chat_uploads` (chat/photos.ts keeps the upload's row
 * while any message uses it), so `chat_uploads` speaks for them. media/orphans.test.ts checks the
 * schema has no other such column.
 */
export const IMAGE_KEY_COLUMNS = [
  ['listings', 'image_key'],
  ['listings', 'thumb_key'],
  ['listing_photos', 'image_key'],
  ['listing_photos', 'thumb_key'],
  ['users', 'avatar_key'],
  ['users', 'avatar_thumb_key'],
  ['chat_uploads', 'image_key'],
  ['chat_uploads', 'thumb_key'],
] as const;

/** Keys per query: eight columns each, far below either database's limit on parameters. */
const CHUNK = 500;

/**
 * The keys among `keys` that some row names: the campus's rows, or every campus's (`null`, the
 * caller reading across campuses: the disk's one folder). One query per 500 keys, each an index
 * probe per column (migration 023).
 */
export async function namedKeys(
  db: Kysely<Database>,
  keys: readonly string[],
  campusId: number | null,
): Promise<Set<string>> {
  const named = new Set<string>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const list = sql.join(keys.slice(i, i + CHUNK));
    const selects = IMAGE_KEY_COLUMNS.map(
      ([table, column]) =>
        sql`select ${sql.ref(column)} as k from ${sql.table(table)} where ${sql.ref(column)} in (${list})${
          campusId === null ? sql`` : sql` and campus_id = ${campusId}`
        }`,
    );
    const { rows } = await sql<{ k: string }>`${sql.join(selects, sql` union `)}`.execute(db);
    for (const row of rows) named.add(row.k);
  }
  return named;
}
