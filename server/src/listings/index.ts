import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { openSearchReader } from '../db/search-reader.js';
import { registerMediaRoutes } from '../media/index.js';
import { registerFreshness } from './freshness.js';
import { HotCache } from './hot-cache.js';
import { Personaliser } from './personalise.js';
import { PhotosService } from './photos.js';
import { SearchReadiness } from './readiness.js';
import { listingsRoutes } from './routes.js';
import { keepsCopy, type ListingSearch, type SearchEngine } from './search/listing-search.js';
import { LiveSearchIndex } from './search/live-index.js';
import { PostgresSearch } from './search/postgres-search.js';
import { ShardedSearchIndex } from './search/sharded-index.js';
import { WorkerSearchIndex } from './search/worker-index.js';
import { SeasonWrites } from './season.js';
import { ListingsService, type ListingsDeps } from './service.js';
import type { ListingRow } from './store.js';

// What other modules use of listings: they import nothing else from listings/.
export { ListingsService, type ListingsDeps, type ListingWrite } from './service.js';
export type { ListingRow, ListingWithSeller } from './store.js';
/** Row reads (and the demo seed's writes), each taking `db` or a transaction first. */
export { browse as browseListingRows } from './browse-store.js';
export {
  findById as findListingRow,
  findPreviewRow as findListingPreviewRow,
  insertListing,
  isRemoved as isListingRemoved,
  toggleSold as toggleListingSold,
  toListing,
  toListings,
} from './store.js';
export { RenderedListings } from './personalise.js';
export { SeasonWrites } from './season.js';
export { parseFilters } from './query.js';
export { readPhotoForm } from './form.js';
export { queryMatches } from './search/match-one.js';
export type { SearchEngine } from './search/listing-search.js';

/** What other modules (selling) build on. */
export interface ListingsModule {
  service: ListingsService;
  search: SearchEngine;
  personaliser: Personaliser;
  /** The per-process hot-read cache (tests read its size). */
  cache: HotCache;
  /** Price steps and taking listings off the market for the move-out season (moving-out/). */
  season: SeasonWrites;
  /**
   * False while the memory engine's index is still loading at start-up (GET /readyz answers 503):
   * a search now would wait for the load. Always true with SEARCH_ENGINE=postgres.
   */
  searchReady(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    listings: ListingsModule;
  }
}

/**
 * Listings module entry: listing routes, search through the engine app.ts chose (`memorySearch` or
 * `postgresSearch`), and GET /uploads for stored photos.
 */
export async function registerListings(
  app: FastifyInstance,
  ctx: AppContext,
  options: {
    search: SearchEngine;
    /**
     * Load a memory index while the server starts (default: outside NODE_ENV=test, where most
     * tests build many apps and the index loads on the first search instead).
     */
    loadIndexAtStart?: boolean;
  },
  deps: ListingsDeps,
): Promise<ListingsModule> {
  const search = options.search;
  app.addHook('onClose', () => search.close());
  // The app's clock: tests move it to see a page expire instead of waiting a real second.
  const cache = new HotCache(undefined, undefined, ctx.clock);
  // A memory index follows this process's writes at once (postgres reads the committed rows and
  // needs nothing); the campus's hot cache clears; other processes see updated_at move.
  const copy = keepsCopy(search) ? search : undefined;
  const follow = ({ row }: { row: ListingRow }) => {
    copy?.applyRow(row);
    cache.listingsChanged(Number(row.campus_id));
  };
  ctx.domainEvents.afterCommit('listing.written', follow);
  ctx.domainEvents.afterCommit('listing.changed', follow);
  ctx.domainEvents.afterCommit('listing.deleted', ({ id, campusId }) => {
    copy?.remove(id);
    cache.listingsChanged(campusId);
  });
  const service = new ListingsService(ctx, search, deps);
  const personaliser = new Personaliser(ctx);
  const photos = new PhotosService(ctx, service);
  await registerMediaRoutes(app, ctx);
  await app.register(listingsRoutes(ctx, service, cache, { personaliser, photos }));
  await registerFreshness(app, ctx, service, personaliser);
  const loadAtStart = copy !== undefined && (options.loadIndexAtStart ?? ctx.config.nodeEnv !== 'test');
  const readiness = new SearchReadiness(search, ctx.logger, loadAtStart);
  // Build the search index while the server starts, so the first search does not wait for it; the
  // process says it is not ready until it is built.
  if (loadAtStart) app.addHook('onReady', async () => readiness.load());
  const listings: ListingsModule = {
    service,
    search,
    personaliser,
    cache,
    season: new SeasonWrites(ctx.domainEvents),
    searchReady: () => readiness.ready(),
  };
  app.decorate('listings', listings);
  return listings;
}

/**
 * SEARCH_ENGINE=memory: the server keeps the index in worker threads (search/worker-index.ts says
 * why), split across `searchThreads` of them (search/sharded-index.ts); tests may keep it in this
 * thread. Nothing is read until the first search or warm().
 */
export function memorySearch(ctx: AppContext, inWorkers: boolean): ListingSearch {
  if (!inWorkers) return new LiveSearchIndex(ctx.db);
  const data = { databaseUrl: ctx.config.databaseUrl, dataDir: ctx.config.dataDir };
  const count = ctx.config.searchThreads;
  if (count === 1) return new WorkerSearchIndex(data, ctx.logger);
  return new ShardedSearchIndex(
    Array.from(
      { length: count },
      (_, index) => new WorkerSearchIndex({ ...data, shard: { count, index } }, ctx.logger),
    ),
  );
}

/**
 * SEARCH_ENGINE=postgres: search in the database (search/postgres-search.ts); nothing is kept here.
 * Through SEARCH_DATABASE_URL's reader when given (its role is checked first: start-up fails for
 * one that would find nothing or could write), else as every other read.
 */
export async function postgresSearch(ctx: AppContext): Promise<SearchEngine> {
  const url = ctx.config.searchDatabaseUrl;
  if (!url) {
    if (ctx.config.nodeEnv === 'production')
      ctx.logger.warn(
        'SEARCH_ENGINE=postgres without SEARCH_DATABASE_URL: searches run under row-level security, which keeps PostgreSQL from using the text indexes (seconds per search on a campus of 100,000 listings; docs/operations.md, "Search in PostgreSQL")',
      );
    return new PostgresSearch(ctx.db, ctx.clock);
  }
  // The app's role owns listings, so it can let the reader read them (and only them). Processes
  // starting together would race to grant ("tuple concurrently updated"): grant only what is
  // missing, and take another process's grant as done.
  const canRead = async (role: string) =>
    (
      await sql<{
        reads: boolean;
      }>`select has_table_privilege(${role}, 'listings', 'select') as reads`.execute(ctx.db.kysely)
    ).rows[0]?.reads === true;
  const grantRead = async (role: string) => {
    if (await canRead(role)) return;
    try {
      await sql`grant select on listings to ${sql.id(role)}`.execute(ctx.db.kysely);
    } catch (error) {
      if (!(await canRead(role))) throw error;
    }
  };
  const reader = await openSearchReader(url, ctx.config.nodeEnv === 'production', grantRead);
  return new PostgresSearch(ctx.db, ctx.clock, reader);
}
