import { sql, type Migration } from 'kysely';
import type { Db } from '../connection.js';

/**
 * The words of a listing for full-text search (SEARCH_ENGINE=postgres, listings/search/postgres-search.ts),
 * weighted A/B/C for name, description and category. An expression, not a stored column: `select
 * listings.*` (every browse) would otherwise carry the vector to the app, and the table is not
 * rewritten. The search repeats this text exactly, so PostgreSQL matches it to the index.
 */
export const LISTING_WORDS_SQL =
  "(setweight(to_tsvector('english'::regconfig, name), 'A') || " +
  "setweight(to_tsvector('english'::regconfig, description), 'B') || " +
  "setweight(to_tsvector('english'::regconfig, category), 'C'))";

/**
 * What search can find: unsold, not hidden by moderation, not taken off the market (listings/store.ts
 * `onMarket`). The search indexes hold only these rows; the search repeats the same conditions as
 * literals so the planner can use them.
 */
export const ON_MARKET_SQL = 'is_sold = 0 and moderation is null and unlisted_at is null';

/**
 * Search in PostgreSQL (features.md §F). On PostgreSQL:
 * - `pg_trgm` (trigram similarity: typo tolerance), `btree_gin` (a GIN index that leads with the
 *   campus) and `fuzzystrmatch` (Levenshtein distance, which checks a one-word typo the trigrams
 *   let through). All three are trusted extensions: the database's owner creates them, no superuser
 *   needed (docs/operations.md, "PostgreSQL roles"); `if not exists` leaves an operator's own alone;
 * - three GIN indexes, each leading with `campus_id` so a search reads one campus's entries, each
 *   partial on the listings search can find (sold ones pile up and are never searched): trigrams of
 *   the name, trigrams of the description, and the weighted words (LISTING_WORDS_SQL).
 * SQLite: nothing (the memory index is its only engine).
 */
export function searchInPostgresMigration(db: Db): Migration {
  return {
    async up(k) {
      if (db.dialect !== 'postgres') return;
      await sql`create extension if not exists pg_trgm`.execute(k);
      await sql`create extension if not exists btree_gin`.execute(k);
      await sql`create extension if not exists fuzzystrmatch`.execute(k);
      await sql
        .raw(
          `create index listings_search_name on listings using gin (campus_id, name gin_trgm_ops) where ${ON_MARKET_SQL}`,
        )
        .execute(k);
      await sql
        .raw(
          `create index listings_search_description on listings using gin (campus_id, description gin_trgm_ops) where ${ON_MARKET_SQL}`,
        )
        .execute(k);
      await sql
        .raw(
          `create index listings_search_words on listings using gin (campus_id, ${LISTING_WORDS_SQL}) where ${ON_MARKET_SQL}`,
        )
        .execute(k);
    },
    async down(k) {
      if (db.dialect !== 'postgres') return;
      for (const index of ['listings_search_words', 'listings_search_description', 'listings_search_name'])
        await sql`drop index if exists ${sql.raw(index)}`.execute(k);
      // The extensions stay: an operator's other objects may use them.
    },
  };
}
