import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { campusInsertPlugin } from './campus-scope.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './checkpointer.js';
import { RowSecurity } from './row-security.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  /**
   * Keeps the query planner's statistics current (SQLite; PostgreSQL's autovacuum does this
   * itself). Without them SQLite picks a price index for a course filter and sorts in memory.
   */
  refreshPlannerStats(): Promise<void>;
  /**
   * PostgreSQL: after the migrations, checks the role the app connected as and from then on runs
   * every query under row-level security (db/row-security.ts). Throws, in production, for a role
   * that would bypass it. SQLite: nothing to do.
   */
  enforceRowSecurity(production: boolean): Promise<void>;
  close(): Promise<void>;
}

// int8 (COUNT(*), bigint timestamps) arrives as a string by default; our values fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  sqliteFile?: string;
  /** SQLite: checkpoint the WAL from a worker thread (checkpointer.ts); the server does. */
  backgroundCheckpoint?: boolean;
}

export function openDb(options: OpenOptions): Db {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const file = options.sqliteFile ?? path.join(options.dataDir, 'market.db');
  return openSqlite(file, options.backgroundCheckpoint === true);
}

function openSqlite(file: string, backgroundCheckpoint: boolean): Db {
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL + NORMAL is durable across process crashes; only an OS crash can lose the last commit.
  sqlite.pragma('synchronous = NORMAL');
  let checkpointer: Checkpointer | undefined;
  if (backgroundCheckpoint) {
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    checkpointer = startCheckpointer(file);
  }
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [campusInsertPlugin],
  });
  return {
    kysely,
    dialect: 'sqlite',
    ping: async () => {
      sqlite.prepare('select 1').get();
    },
    refreshPlannerStats: async () => {
      // A database that was never analysed gets full statistics (≈0.2 s per 100k listings, once);
      // after that PRAGMA optimize re-analyses only tables that changed a lot since.
      const analysed = sqlite
        .prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'")
        .get();
      if (analysed) sqlite.pragma('optimize');
      else sqlite.exec('ANALYZE');
    },
    enforceRowSecurity: async () => {},
    close: async () => {
      await kysely.destroy();
      await checkpointer?.stop();
    },
  };
}

/**
 * Kysely prepares every query anew; better-sqlite3's prepare() was a sixth of the chat write
 * path's CPU. Our queries are built from a bounded set of shapes, so their statements are reused.
 * Safe because the driver runs each statement to completion synchronously (no iterate()).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(given: string) {
      // Kysely begins every transaction DEFERRED: it reads on a snapshot, and its first write fails
      // at once with SQLITE_BUSY_SNAPSHOT if another connection (a seed, a migration, an admin
      // shell) committed since. IMMEDIATE takes the write lock up front, waiting up to busy_timeout
      // for it; within this process Kysely runs one transaction at a time anyway.
      const sql = given === 'begin' ? 'begin immediate' : given;
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * A pool of the app's connections to `url` (the app's own, and the search reader's): a database
 * that does not answer the connection fails the request after 5 s (a 503) instead of leaving it
 * waiting for as long as the client does. `what` names the pool in warnings.
 */
export function openPgPool(url: string, what = ''): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle pooled connection that the server closes (restart, failover, a dropped test database)
  // emits 'error' on the pool; without a listener Node would crash the whole process. The pool
  // discards that client and the next query opens a fresh one, so there is nothing else to do.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL closed an idle ${what}connection: ${error.message}`, 'DatabaseWarning');
  });
  pool.on('connect', (client) => {
    // The same for a connection that is checked out (inside a transaction, between two queries):
    // pg emits 'error' on the client itself, and unheard that is an uncaught exception. The query
    // in hand fails on its own (503 for the request) and the pool discards the client on release.
    client.on('error', () => undefined);
  });
  return pool;
}

function openPostgres(url: string): Db {
  const pool = openPgPool(url);
  const rowSecurity = new RowSecurity();
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: retryingPool(pool, rowSecurity) }),
    plugins: [campusInsertPlugin],
  });
  return {
    kysely,
    dialect: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    refreshPlannerStats: async () => {},
    enforceRowSecurity: (production) => rowSecurity.enforce(pool, production),
    close: () => kysely.destroy(),
  };
}

/**
 * Errors that mean "the database could not be reached or dropped the connection", not "the query
 * was wrong": refused, reset or timed-out sockets, the server shutting down or refusing
 * connections (SQLSTATE classes 08 and 57P, 53300), and SQLite still locked after busy_timeout.
 * The API answers these with 503 and Retry-After.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || /^(08|57P)/.test(code) || code === '53300') return true;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') return true;
  }
  return CONNECTION_MESSAGES.test(error.message);
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

type PoolClient = pg.PoolClient;

/**
 * The pool as Kysely sees it, retrying once what is safe to retry after a dropped connection:
 * - opening a connection (nothing was sent yet);
 * - a SELECT outside a transaction whose connection died under it (a pooled connection the server
 *   had closed: a restart, a failover). Reads are safe to run twice; writes and anything inside a
 *   transaction are not retried, they fail (503) and the client tries again.
 */
function retryingPool(
  pool: pg.Pool,
  rowSecurity: RowSecurity,
): { connect(): Promise<PoolClient>; end(): Promise<void> } {
  const open = async (): Promise<PoolClient> => {
    try {
      return await pool.connect();
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      return pool.connect();
    }
  };
  // Each checkout carries the campus of the work in hand (a query, or a whole transaction). The
  // scope is the first thing sent on a pooled connection, so a connection the server dropped fails
  // there: it is discarded and the scope sent once more on a fresh one (nothing else was sent yet).
  const connect = async (): Promise<PoolClient> => {
    for (let attempt = 1; ; attempt++) {
      const client = await open();
      try {
        await rowSecurity.scope(client);
        return client;
      } catch (error) {
        client.release(error as Error);
        if (attempt >= 2 || !isConnectionError(error)) throw error;
      }
    }
  };
  return {
    connect: async () => {
      let client: PoolClient | undefined = await connect();
      let inTransaction = false;
      const query = (args: unknown[]) => {
        if (!client) throw new Error('Connection is closed');
        return (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      };
      const checkout = {
        query(...args: unknown[]): unknown {
          const [text] = args;
          if (typeof text !== 'string') return query(args);
          if (/^\s*(begin|start transaction)/i.test(text)) inTransaction = true;
          else if (/^\s*(commit|rollback)\b/i.test(text)) inTransaction = false;
          if (inTransaction || !/^\s*select\b/i.test(text)) return query(args);
          return query(args).catch(async (error: unknown) => {
            if (!isConnectionError(error)) throw error;
            // Drop the dead connection (released with the error) and read again on a fresh one.
            const dead = client;
            client = undefined;
            dead?.release(error as Error);
            client = await connect();
            return query(args);
          });
        },
        release(error?: Error | boolean) {
          const held = client;
          client = undefined;
          held?.release(error);
        },
      };
      return checkout as unknown as PoolClient;
    },
    end: () => pool.end(),
  };
}
