import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './checkpointer.js';
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

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle pooled connection that the server closes (restart, failover, a dropped test database)
  // emits 'error' on the pool; without a listener Node would crash the whole process. The pool
  // discards that client and the next query opens a fresh one, so there is nothing else to do.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL closed an idle connection: ${error.message}`, 'DatabaseWarning');
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    refreshPlannerStats: async () => {},
    close: () => kysely.destroy(),
  };
}
