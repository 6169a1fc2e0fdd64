import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.js';
import { openDb } from './connection.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cm-checkpoint-'));
  dirs.push(dir);
  return path.join(dir, 'market.db');
}

describe('SQLite checkpoints in a worker thread', () => {
  it('copies committed pages from the WAL into the database file while the main connection writes', async () => {
    const file = tempFile();
    const main = new SQLite(file);
    main.pragma('journal_mode = WAL');
    main.pragma('synchronous = NORMAL');
    // The main connection never checkpoints by itself here: only the worker does.
    main.pragma('wal_autocheckpoint = 0');
    main.exec('create table notes (id integer primary key, body text not null)');
    const insert = main.prepare('insert into notes (body) values (?)');
    for (let i = 0; i < 500; i += 1) insert.run(`note ${i} ${'x'.repeat(200)}`);
    const before = statSync(file).size;

    const checkpointer = startCheckpointer(file, 60_000);
    try {
      const result = await checkpointer.checkpoint();
      expect(result.log).toBeGreaterThan(0);
      expect(result.checkpointed).toBe(result.log);
      // The rows now live in the database file itself.
      expect(statSync(file).size).toBeGreaterThan(before);
      // Writes go on while the worker holds its own connection.
      insert.run('after the checkpoint');
      expect((main.prepare('select count(*) as n from notes').get() as { n: number }).n).toBe(501);
    } finally {
      await checkpointer.stop();
      main.close();
    }
    const reopened = new SQLite(file, { readonly: true });
    expect((reopened.prepare('select count(*) as n from notes').get() as { n: number }).n).toBe(501);
    reopened.close();
  });

  it('is started and stopped with the database when asked for, and keeps every write', async () => {
    const file = tempFile();
    const db = openDb({ dataDir: path.dirname(file), sqliteFile: file, backgroundCheckpoint: true });
    await db.kysely.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('body', 'text')
      .execute();
    await db.kysely
      .insertInto('notes' as never)
      .values(Array.from({ length: 100 }, (_, i) => ({ body: `note ${i}` })) as never)
      .execute();
    await db.close();
    const reopened = new SQLite(file, { readonly: true });
    expect((reopened.prepare('select count(*) as n from notes').get() as { n: number }).n).toBe(100);
    reopened.close();
  });
});
