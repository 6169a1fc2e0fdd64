/**
 * Migrated databases to copy from. Migrating is most of a test app's start-up, and a run builds
 * hundreds of apps: the suite's global set-up (global-setup.ts) migrates one SQLite file and one
 * PostgreSQL database once and names them in the environment; each test app starts from a copy.
 * Without those variables (a probe run outside Vitest) every app migrates its own, as before.
 */
import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDb } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createPgDatabase } from './pg-database.js';

/** The migrated SQLite file (the global set-up's), if there is one. */
const SQLITE_TEMPLATE_ENV = 'CM_TEST_SQLITE_TEMPLATE';
/** The migrated PostgreSQL database's name on TEST_DATABASE_URL's server, if there is one. */
const PG_TEMPLATE_ENV = 'CM_TEST_PG_TEMPLATE';

/** The one row a database is created with (migration 010); every copy gets an id of its own. */
const newDeploymentId = () => randomBytes(8).toString('hex');

export async function createTemplates(pgBase: string | undefined, dir: string) {
  const file = path.join(dir, 'template.db');
  const sqlite = openDb({ dataDir: dir, sqliteFile: file });
  await migrateToLatest(sqlite);
  // Closing checkpoints the WAL into the file, so the one file is the whole database.
  await sqlite.close();
  process.env[SQLITE_TEMPLATE_ENV] = file;
  let dropPg: (() => Promise<void>) | undefined;
  if (pgBase) {
    const created = await createPgDatabase(pgBase, 'cm_template');
    const db = openDb({ databaseUrl: created.url, dataDir: '' });
    await migrateToLatest(db);
    await db.close();
    process.env[PG_TEMPLATE_ENV] = new URL(created.url).pathname.slice(1);
    dropPg = created.drop;
  }
  return {
    async drop() {
      delete process.env[SQLITE_TEMPLATE_ENV];
      delete process.env[PG_TEMPLATE_ENV];
      await dropPg?.();
    },
  };
}

/** Puts a migrated copy at `file` when there is a template; the app's migration then has nothing to do. */
export async function copySqliteTemplate(file: string): Promise<void> {
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (!template) return;
  await copyFile(template, file);
  const db = new SQLite(file);
  try {
    db.prepare('UPDATE deployment SET id = ?').run(newDeploymentId());
  } finally {
    db.close();
  }
}

/** A fresh PostgreSQL database on `base`'s server: a migrated copy when there is a template. */
export async function createPgCopy(
  base: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const template = process.env[PG_TEMPLATE_ENV];
  const created = await createPgDatabase(base, prefix, template);
  if (template) {
    const c = new pg.Client({ connectionString: created.url });
    await c.connect();
    try {
      await c.query('UPDATE deployment SET id = $1', [newDeploymentId()]);
    } finally {
      await c.end();
    }
  }
  return created;
}
