import { sql, type Migration } from 'kysely';
import type { Db } from '../connection.js';
import { ON_MARKET_SQL } from './022_search_in_postgres.js';

/**
 * The words of a listing's name and description for full-text search (SEARCH_ENGINE=postgres,
 * listings/search/postgres-query.ts), weighted A and B. Migration 022's words also held the category
 * (C): a query naming a category ("books") then found every listing of it through the words index
 * — a seventh of the campus, each one's words worked out again to check — although a category is
 * a key of its own and its listings found by it alone are read apart, newest first. An expression,
 * not a stored column, as 022's; the search repeats this text exactly.
 */
export const LISTING_TEXT_WORDS_SQL =
  "(setweight(to_tsvector('english'::regconfig, name), 'A') || " +
  "setweight(to_tsvector('english'::regconfig, description), 'B'))";

/** Replaces 022's words index by one over the name and description only (PostgreSQL; SQLite: nothing). */
export function searchWordsOfTextMigration(db: Db): Migration {
  return {
    async up(k) {
      if (db.dialect !== 'postgres') return;
      await sql
        .raw(
          `create index listings_search_text_words on listings using gin (campus_id, ${LISTING_TEXT_WORDS_SQL}) where ${ON_MARKET_SQL}`,
        )
        .execute(k);
      await sql`drop index if exists listings_search_words`.execute(k);
    },
    async down(k) {
      if (db.dialect !== 'postgres') return;
      await sql`drop index if exists listings_search_text_words`.execute(k);
    },
  };
}
