import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { DomainEvents } from './events.js';
import { createPgDatabase, dialects } from '../test/helper.js';

declare module './events.js' {
  interface DomainEventMap {
    'test.fact': { id: number };
  }
}

describe.each(dialects)('domain events (%s)', (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const errors: unknown[] = [];
  let events: DomainEvents;

  beforeEach(async () => {
    errors.length = 0;
    if (dialect === 'postgres') {
      const pg = await createPgDatabase();
      db = openDb({ databaseUrl: pg.url, dataDir: '' });
      cleanup = async () => {
        await db.close();
        await pg.drop();
      };
    } else {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'events-'));
      db = openDb({ dataDir: dir });
      cleanup = async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    await migrateToLatest(db);
    events = new DomainEvents(db.kysely, { error: (obj: unknown) => errors.push(obj) });
  });
  afterEach(async () => cleanup());

  const rowCount = async () =>
    Number(
      (
        await db.kysely
          .selectFrom('deployment')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('commits what an in-transaction listener writes with the fact, then tells after-commit listeners', async () => {
    const seen: string[] = [];
    events.inTransaction('test.fact', async (trx, fact) => {
      seen.push(`in:${fact.id}`);
      await trx
        .insertInto('deployment')
        .values({ id: `listener-${fact.id}`, created_at: 0 })
        .execute();
    });
    events.afterCommit('test.fact', async (fact) => {
      seen.push(`after:${fact.id}:rows=${await rowCount()}`);
    });
    const before = await rowCount();
    const result = await events.transaction(async (trx) => {
      await events.announce(trx, 'test.fact', { id: 7 });
      seen.push('work done');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(seen).toEqual(['in:7', 'work done', `after:7:rows=${before + 1}`]);
  });

  it('rolls the write back and tells no after-commit listener when an in-transaction listener refuses', async () => {
    const after: number[] = [];
    events.inTransaction('test.fact', async (trx) => {
      await trx.insertInto('deployment').values({ id: 'must-roll-back', created_at: 0 }).execute();
      throw new Error('refused');
    });
    events.afterCommit('test.fact', (fact) => void after.push(fact.id));
    const before = await rowCount();
    await expect(
      events.transaction(async (trx) => events.announce(trx, 'test.fact', { id: 1 })),
    ).rejects.toThrow('refused');
    expect(await rowCount()).toBe(before);
    expect(after).toEqual([]);
  });

  it('keeps the write when an after-commit listener fails, and logs the failure', async () => {
    events.afterCommit('test.fact', () => {
      throw new Error('index away');
    });
    const before = await rowCount();
    await events.transaction(async (trx) => {
      await trx.insertInto('deployment').values({ id: 'kept', created_at: 0 }).execute();
      await events.announce(trx, 'test.fact', { id: 2 });
    });
    expect(await rowCount()).toBe(before + 1);
    expect(errors).toHaveLength(1);
  });

  it('refuses an announcement outside one of its transactions', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => events.announce(trx, 'test.fact', { id: 3 })),
    ).rejects.toThrow(/outside a transaction/);
  });

  it('delivers an already-committed fact to after-commit listeners only, and refuses it with in-transaction ones', async () => {
    const after: number[] = [];
    events.afterCommit('test.fact', (fact) => void after.push(fact.id));
    await events.announceCommitted('test.fact', { id: 4 });
    expect(after).toEqual([4]);
    events.inTransaction('test.fact', async () => {});
    await expect(events.announceCommitted('test.fact', { id: 5 })).rejects.toThrow(
      /in-transaction listeners/,
    );
  });
});
