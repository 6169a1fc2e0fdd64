import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { openPgPool } from './connection.js';
import { SESSION_SETTINGS_SQL } from './session-settings.js';
import type { Database } from './schema.js';

/**
 * The connection search in PostgreSQL reads through when the operator gives one
 * (SEARCH_DATABASE_URL; listings/search/postgres-search.ts). Row-level security (row-security.ts)
 * keeps PostgreSQL from using the text indexes: a policy's condition runs before any condition
 * that is not LEAKPROOF, and the trigram, ILIKE and full-text operators are not, so under the
 * policies a search reads every listing of the campus and tests each one (4.2 s instead of 0.15 s
 * for "textbook" on a campus of 100,000; docs/decisions.md, "Search in PostgreSQL"). This role is
 * not held to the policies (BYPASSRLS) and may only read: every search query names its campus
 * itself (postgres-query.ts), as the memory index, which keeps every campus's listings in one
 * process, does.
 */
export interface SearchReader {
  kysely: Kysely<Database>;
  close(): Promise<void>;
}

interface RoleFacts {
  name: string;
  superuser: boolean;
  bypassesPolicies: boolean;
  reads: boolean;
  writes: boolean;
}

/** What is wrong with the reader's role, or null: refusals are for start-up, with what to do. */
export function searchRoleProblem(role: RoleFacts, production: boolean): string | null {
  const fix =
    'Create a role for it: `create role campus_search login bypassrls password …` (the app grants it SELECT on listings; docs/operations.md, "Search in PostgreSQL").';
  if (!role.reads)
    return `SEARCH_DATABASE_URL connects as "${role.name}", which may not read the listings table. ${fix}`;
  if (!role.bypassesPolicies)
    return `SEARCH_DATABASE_URL connects as "${role.name}", which row-level security holds to the campus policies: its searches would find nothing. ${fix}`;
  if (production && role.superuser)
    return `SEARCH_DATABASE_URL connects as "${role.name}", a superuser: the search reader needs to read listings, nothing more. ${fix}`;
  if (production && role.writes)
    return `SEARCH_DATABASE_URL connects as "${role.name}", which may change the listings table: the search reader must only read it. ${fix}`;
  return null;
}

/**
 * Opens the reader, lets `grantRead` give its role SELECT on listings (the tables' owner, the app's
 * own role, may: the operator creates the role and nothing else), then checks the role: throws,
 * before the server takes requests, for a role that would find nothing or, in production, could do
 * more than read listings.
 */
export async function openSearchReader(
  url: string,
  production: boolean,
  grantRead: (role: string) => Promise<void>,
): Promise<SearchReader> {
  const pool = openPgPool(url, 'search ');
  try {
    const me = await pool.query<{ name: string }>('select current_user as name');
    await grantRead(me.rows[0]!.name);
    const { rows } = await pool.query<RoleFacts>(
      `select current_user as name, rolsuper as superuser, (rolsuper or rolbypassrls) as "bypassesPolicies",
         has_table_privilege('listings', 'select') as reads,
         (has_table_privilege('listings', 'insert') or has_table_privilege('listings', 'update')
           or has_table_privilege('listings', 'delete')) as writes
       from pg_roles where rolname = current_user`,
    );
    const problem = rows[0] ? searchRoleProblem(rows[0], production) : 'SEARCH_DATABASE_URL: role not found';
    if (problem) throw new Error(problem);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      onCreateConnection: async (connection) => {
        await connection.executeQuery(CompiledQuery.raw(SESSION_SETTINGS_SQL));
      },
    }),
  });
  return {
    kysely,
    async close() {
      await kysely.destroy();
      // Kysely ends the pool only if it ran a query; the role check's connection is the pool's too.
      if (!pool.ended) await pool.end();
    },
  };
}
