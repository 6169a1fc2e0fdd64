import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { SearchReader } from '../../db/search-reader.js';
import type { SearchEngine } from './listing-search.js';
import { matches, prepareQuery, typoBound, type CandidateSet, type PreparedQuery } from './postgres-query.js';
import type {
  ListSort,
  SearchAfter,
  SearchFilters,
  SearchHit,
  SortedAfter,
  SortedHit,
} from './search-types.js';

/**
 * SEARCH_ENGINE=postgres (features.md §F): search, filters, sorts and keyset paging run in
 * PostgreSQL over the listings table itself (postgres-query.ts: the query and how it follows the
 * memory index's rules), through the campus-leading indexes of migration 022. Nothing is kept in
 * the process, so a process's memory does not grow with the listings, and there is nothing for the
 * module's writes to reach: every search reads the committed rows.
 *
 * Each search is one transaction: it sets pg_trgm's candidate threshold for that transaction only,
 * then runs the query. Through the operator's search reader (SEARCH_DATABASE_URL,
 * db/search-reader.ts) the text indexes answer; without one, the search runs as the request's
 * campus under row-level security like every other read, finds the same listings, and reads every
 * listing of the campus to do it.
 */
export class PostgresSearch implements SearchEngine {
  private readonly kysely: Kysely<Database>;

  constructor(
    db: Db,
    private readonly clock: () => number,
    private readonly reader?: SearchReader,
  ) {
    if (db.dialect !== 'postgres') throw new Error('PostgresSearch needs a PostgreSQL database');
    this.kysely = reader?.kysely ?? db.kysely;
  }

  /** Nothing to build: the indexes are the database's. */
  async warm(): Promise<void> {}

  async search(
    campusId: number,
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
  ): Promise<SearchHit[]> {
    if (query === '') return [];
    const q = prepareQuery(query);
    const now = this.clock();
    const keyset = after
      ? sql`where score > ${after.score}::float8 or (score = ${after.score}::float8 and id < ${after.id}::int)`
      : sql``;
    const ranked = (set: CandidateSet) =>
      sql`select id, score from ${matches(q, campusId, filters, now, set, { limit, after })} as hits ${keyset}
        order by score asc, id desc limit ${limit}::int`;
    const hits = matches(q, campusId, filters, now);
    const bound = typoBound(q);
    const rows = await this.run<{ id: number; score: number }>(
      q,
      after !== undefined,
      (all) => (all ? sql`select id, score from ${hits} as hits limit 1` : ranked('all')),
      // A full page of listings holding the query as typed, every one better than any typo match
      // could score, is the page: the typo candidates are not read (a little margin for rounding).
      async (execute) => {
        if (bound === 0) return undefined;
        const typed = await execute(ranked('typed'));
        const last = typed[typed.length - 1];
        return typed.length === limit && last && Number(last.score) < bound * 0.999_999 ? typed : undefined;
      },
    );
    return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  async searchSorted(
    campusId: number,
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): Promise<SortedHit[]> {
    if (query === '') return [];
    const q = prepareQuery(query);
    const hits = matches(q, campusId, filters, this.clock());
    let keyset = sql``;
    let order: RawBuilder<unknown>;
    if (sort === 'newest') {
      if (after) keyset = sql`where id < ${after.id}::int`;
      order = sql`id desc`;
    } else {
      const dir = sort === 'price_asc' ? sql.raw('>') : sql.raw('<');
      if (after) keyset = sql`where (price, id) ${dir} (${after.price}::int, ${after.id}::int)`;
      order = sort === 'price_asc' ? sql`price asc, id asc` : sql`price desc, id desc`;
    }
    const rows = await this.run<{ id: number; price: number }>(q, after !== undefined, (all) =>
      all
        ? sql`select id, price from ${hits} as hits limit 1`
        : sql`select id, price from ${hits} as hits ${keyset} order by ${order} limit ${limit}::int`,
    );
    return rows.map((r) => ({ id: r.id, price: r.price }));
  }

  /** The search reader's connections, if it has its own. */
  async close(): Promise<void> {
    await this.reader?.close();
  }

  /**
   * One transaction of the request's campus: the page at the usual candidate threshold; when that
   * search finds nothing at all (a first page that is empty, or a later page whose search has no
   * match), the page again at the deep threshold (postgres-query.ts, candidateSimilarity). Whether
   * a search is deep depends only on the query and the listings, not on the page, so every page of
   * one search reads the same way.
   */
  private run<R>(
    q: PreparedQuery,
    paged: boolean,
    page: (existence: boolean) => RawBuilder<unknown>,
    shortcut?: (execute: (query: RawBuilder<unknown>) => Promise<R[]>) => Promise<R[] | undefined>,
  ): Promise<R[]> {
    return this.kysely.transaction().execute(async (trx: Kysely<Database>) => {
      const threshold = (value: number) =>
        sql`select set_config('pg_trgm.word_similarity_threshold', ${String(value)}, true)`.execute(trx);
      const execute = async (query: RawBuilder<unknown>) => (await sql<R>`${query}`.execute(trx)).rows;
      // (JIT and parallel workers are off for every connection: db/session-settings.ts says why.)
      await threshold(q.similarity);
      const early = await shortcut?.(execute);
      if (early) return early;
      const rows = await execute(page(false));
      if (rows.length > 0 || q.deepSimilarity === q.similarity) return rows;
      if (paged && (await execute(page(true))).length > 0) return rows;
      await threshold(q.deepSimilarity);
      return execute(page(false));
    });
  }
}
