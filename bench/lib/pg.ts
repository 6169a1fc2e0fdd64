/**
 * A scratch PostgreSQL database for a benchmark, owned by an ordinary role as production has it:
 * the server refuses a superuser DATABASE_URL in production (row-level security would not hold it,
 * server/src/db/row-security.ts), and the benchmarks run the server in production mode.
 */
import pg from 'pg';
import { createPgDatabase } from '../../server/test/pg-database.js';

export const BENCH_OWNER_ROLE = 'cm_bench_owner';

export async function createOwnedPgDatabase(
  base: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const created = await createPgDatabase(base, prefix);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(
      `do $$ begin create role ${BENCH_OWNER_ROLE} login nosuperuser nobypassrls; exception when duplicate_object then null; end $$`,
    );
    const name = new URL(created.url).pathname.slice(1);
    // Since PostgreSQL 15 the public schema belongs to the database's owner: owning the database
    // is enough to create the tables.
    await admin.query(`alter database ${name} owner to ${BENCH_OWNER_ROLE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(created.url);
  url.username = BENCH_OWNER_ROLE;
  url.password = '';
  return { url: url.toString(), drop: created.drop };
}

export const BENCH_SEARCH_ROLE = 'cm_bench_search';

/**
 * The search reader an operator creates for SEARCH_ENGINE=postgres (server/src/db/search-reader.ts):
 * a role row-level security does not hold that may only read listings. Call after the migrations
 * (the grant names the table); returns its SEARCH_DATABASE_URL for the database at `ownedUrl`.
 */
export async function searchReaderUrl(base: string, ownedUrl: string): Promise<string> {
  const name = new URL(ownedUrl).pathname.slice(1);
  const adminUrl = new URL(base);
  adminUrl.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(
      `do $$ begin create role ${BENCH_SEARCH_ROLE} login nosuperuser bypassrls; exception when duplicate_object then null; end $$`,
    );
    await admin.query(`grant select on listings to ${BENCH_SEARCH_ROLE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ownedUrl);
  url.username = BENCH_SEARCH_ROLE;
  url.password = '';
  return url.toString();
}
