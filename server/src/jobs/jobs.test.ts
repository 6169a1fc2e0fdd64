import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { inCampus } from '../db/campus-scope.js';
import { JOB_DEFAULTS, backoffMs } from './queue.js';

describe.each(dialects)('durable job queue (%s)', (dialect) => {
  const opened: TestApp[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => t.close()));
    for (const c of cleanups.splice(0)) await c();
  });
  const open = async (options: Parameters<typeof createTestApp>[0] = {}) => {
    const t = await createTestApp({ dialect, jobWorker: false, ...options });
    opened.push(t);
    return t;
  };
  const jobRows = (t: TestApp) => t.app.ctx.db.kysely.selectFrom('jobs').selectAll().execute();
  /** Jobs belong to a campus: these run as work of the default campus, as a request of it would. */
  const asCampus = <T>(t: TestApp, work: () => Promise<T>) => inCampus(t.app.ctx.campuses.default.id, work);

  it('runs a job enqueued in a committed transaction, and nothing from one that rolled back', async () => {
    const t = await open();
    const ran: string[] = [];
    t.app.ctx.jobs.register<{ n: string }>('test.record', async (p) => {
      ran.push(p.n);
    });
    await asCampus(t, () =>
      t.app.ctx.db.kysely.transaction().execute(async (trx) => {
        await t.app.ctx.jobs.enqueue(trx, 'test.record', { n: 'committed' });
      }),
    );
    await expect(
      asCampus(t, () =>
        t.app.ctx.db.kysely.transaction().execute(async (trx) => {
          await t.app.ctx.jobs.enqueue(trx, 'test.record', { n: 'rolled back' });
          throw new Error('the change failed');
        }),
      ),
    ).rejects.toThrow('the change failed');

    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual(['committed']);
    expect(await jobRows(t)).toEqual([]);
    expect(await t.app.ctx.jobs.runDue()).toBe(0);
  });

  it('waits for runAt by the injected clock', async () => {
    const t = await open();
    const ran: number[] = [];
    t.app.ctx.jobs.register<number>('test.later', async (n) => {
      ran.push(n);
    });
    await asCampus(t, () =>
      t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, 'test.later', 7, { runAt: t.clock.now() + 60_000 }),
    );
    expect(await t.app.ctx.jobs.runDue()).toBe(0);
    t.clock.advance(59_999);
    expect(await t.app.ctx.jobs.runDue()).toBe(0);
    t.clock.advance(1);
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual([7]);
  });

  it('retries a failing job with exponential back-off, then keeps it as failed after maxAttempts', async () => {
    const t = await open();
    let calls = 0;
    t.app.ctx.jobs.register('test.flaky', async () => {
      calls += 1;
      if (calls < 3) throw new Error(`SMTP down (${calls})`);
    });
    await asCampus(t, () => t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, 'test.flaky', {}));
    await t.app.ctx.jobs.runDue();
    expect(calls).toBe(1);
    const [afterOne] = await jobRows(t);
    expect(afterOne).toMatchObject({ attempts: 1, last_error: 'SMTP down (1)', locked_until: null });
    expect(afterOne!.run_at).toBe(t.clock.now() + backoffMs(1));

    t.clock.advance(backoffMs(1) - 1);
    await t.app.ctx.jobs.runDue();
    expect(calls).toBe(1);
    t.clock.advance(1);
    await t.app.ctx.jobs.runDue();
    expect(calls).toBe(2);
    expect(backoffMs(2)).toBe(2 * backoffMs(1));
    t.clock.advance(backoffMs(2));
    await t.app.ctx.jobs.runDue();
    expect(calls).toBe(3);
    expect(await jobRows(t)).toEqual([]);

    // A job that never succeeds stops after maxAttempts and stays for an operator, its key freed.
    let doomed = 0;
    t.app.ctx.jobs.register('test.doomed', async () => {
      doomed += 1;
      throw new Error('always');
    });
    await asCampus(t, () =>
      t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, 'test.doomed', {}, { maxAttempts: 3, key: 'doomed' }),
    );
    for (let i = 0; i < 6; i += 1) {
      await t.app.ctx.jobs.runDue();
      t.clock.advance(JOB_DEFAULTS.backoffMaxMs);
    }
    expect(doomed).toBe(3);
    const [dead] = await jobRows(t);
    expect(dead).toMatchObject({ type: 'test.doomed', attempts: 3, key: null, last_error: 'always' });
    expect(dead!.failed_at).not.toBeNull();
  });

  it('survives a restart: a job enqueued by a closed app runs in the next one on the same database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-jobs-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    const first = await createTestApp({ dialect, dataDir, databaseUrl, jobWorker: false });
    first.app.ctx.jobs.register('test.restart', async () => {
      throw new Error('the first process never runs it');
    });
    await asCampus(first, () =>
      first.app.ctx.jobs.enqueue(first.app.ctx.db.kysely, 'test.restart', { hello: 'again' }),
    );
    await first.close();

    const ran: unknown[] = [];
    const second = await open({ dataDir, databaseUrl });
    second.app.ctx.jobs.register('test.restart', async (p) => {
      ran.push(p);
    });
    expect(await second.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual([{ hello: 'again' }]);
  });

  it('claims again a job whose process died holding it, once the lease has run out', async () => {
    const t = await open();
    let runs = 0;
    t.app.ctx.jobs.register('test.orphan', async () => {
      runs += 1;
    });
    await asCampus(t, () => t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, 'test.orphan', {}));
    // What a crashed worker leaves behind: claimed, never completed.
    await t.app.ctx.db.kysely
      .updateTable('jobs')
      .set({ locked_by: 'w-dead', locked_until: t.clock.now() + JOB_DEFAULTS.leaseMs, attempts: 1 })
      .execute();
    expect(await t.app.ctx.jobs.runDue()).toBe(0);
    t.clock.advance(JOB_DEFAULTS.leaseMs);
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await jobRows(t)).toEqual([]);
  });

  it('ignores a second enqueue with a pending key, and cancel drops the pending job', async () => {
    const t = await open();
    const ran: string[] = [];
    t.app.ctx.jobs.register<string>('test.keyed', async (p) => {
      ran.push(p);
    });
    const db = t.app.ctx.db.kysely;
    const campusId = t.app.ctx.campuses.default.id;
    await t.app.ctx.jobs.enqueue(db, 'test.keyed', 'first', { key: 'offer:1', campusId });
    await t.app.ctx.jobs.enqueue(db, 'test.keyed', 'second', { key: 'offer:1', campusId });
    await t.app.ctx.jobs.enqueue(db, 'test.keyed', 'other', { key: 'offer:2', campusId });
    await t.app.ctx.jobs.cancel(db, 'offer:2', { campusId });
    await t.app.ctx.jobs.cancel(db, 'no-such-key', { campusId });
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual(['first']);

    // Once done, the key is free again; cancel + enqueue in one transaction reschedules.
    await t.app.ctx.jobs.enqueue(db, 'test.keyed', 'third', {
      key: 'offer:1',
      runAt: t.clock.now() + 1000,
      campusId,
    });
    await asCampus(t, () =>
      db.transaction().execute(async (trx) => {
        await t.app.ctx.jobs.cancel(trx, 'offer:1');
        await t.app.ctx.jobs.enqueue(trx, 'test.keyed', 'fourth', {
          key: 'offer:1',
          runAt: t.clock.now() + 5000,
        });
      }),
    );
    t.clock.advance(5000);
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual(['first', 'fourth']);
  });

  it('runs jobs in the background with the worker on, promptly after enqueue', async () => {
    const t = await open({ jobWorker: true });
    const done = new Promise<string>((resolve) => {
      t.app.ctx.jobs.register<string>('test.background', async (p) => resolve(p));
    });
    await asCampus(t, () => t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, 'test.background', 'ran'));
    expect(await done).toBe('ran');
  });
});

describe.runIf(dialects.includes('postgres'))('durable job queue across processes (postgres)', () => {
  it('two app processes on one database run 200 jobs, each exactly once', async () => {
    const database = await createPgDatabase();
    const a = await createTestApp({ databaseUrl: database.url, jobWorker: true });
    const b = await createTestApp({ databaseUrl: database.url, jobWorker: true });
    try {
      const runs = new Map<number, number>();
      const byProcess = { a: 0, b: 0 };
      let finished: () => void = () => undefined;
      const all = new Promise<void>((resolve) => (finished = resolve));
      for (const [name, t] of [
        ['a', a],
        ['b', b],
      ] as const) {
        t.app.ctx.jobs.register<number>('test.once', async (n) => {
          // Yield so that both workers' claims interleave with running handlers.
          await new Promise((resolve) => setImmediate(resolve));
          runs.set(n, (runs.get(n) ?? 0) + 1);
          byProcess[name] += 1;
          if (runs.size === 200) finished();
        });
      }
      await Promise.all(
        Array.from({ length: 200 }, (_, n) =>
          (n % 2 ? a : b).app.ctx.jobs.enqueue((n % 2 ? a : b).app.ctx.db.kysely, 'test.once', n, {
            campusId: a.app.ctx.campuses.default.id,
          }),
        ),
      );
      // Both processes also drain explicitly, concurrently with their background workers.
      await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue(), all]);
      await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue()]);
      expect(runs.size).toBe(200);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(byProcess.a + byProcess.b).toBe(200);
      expect(await a.app.ctx.db.kysely.selectFrom('jobs').selectAll().execute()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  }, 30_000);
});
