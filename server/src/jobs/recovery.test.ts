import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { inCampus } from '../db/campus-scope.js';
import { enqueueMail } from '../mail/jobs.js';
import { JOB_DEFAULTS, workerIdFor } from './queue.js';

/** The pid of a process that ran and exited: a worker that was killed. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe.each(dialects)('jobs after a crash, and the code lane (%s)', (dialect) => {
  const opened: TestApp[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => t.close()));
    for (const c of cleanups.splice(0)) await c();
  });
  /** A data directory and (PostgreSQL) database that several apps share, like restarts do. */
  async function sharedStore() {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-jobs-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    return { dataDir, databaseUrl };
  }
  const open = async (options: Parameters<typeof createTestApp>[0] = {}) => {
    const t = await createTestApp({ dialect, jobWorker: false, ...options });
    opened.push(t);
    return t;
  };

  it('a job held by a killed process runs as soon as the next process starts, not after the lease', async () => {
    const shared = await sharedStore();
    const first = await createTestApp({ dialect, ...shared, jobWorker: false });
    await first.app.ctx.jobs.enqueue(
      first.app.ctx.db.kysely,
      'test.crashed',
      { n: 1 },
      {
        campusId: first.app.ctx.campuses.default.id,
      },
    );
    // What a killed worker leaves behind: claimed for a whole lease, never completed.
    await first.app.ctx.db.kysely
      .updateTable('jobs')
      .set({
        locked_by: workerIdFor(deadPid()),
        locked_until: first.clock.now() + JOB_DEFAULTS.leaseMs,
        attempts: 1,
      })
      .execute();
    await first.close();

    const second = await open(shared);
    const ran: unknown[] = [];
    second.app.ctx.jobs.register('test.crashed', async (p) => {
      ran.push(p);
    });
    expect(await second.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual([{ n: 1 }]);
  });

  it('a job held by a process that is still running is left to it', async () => {
    const shared = await sharedStore();
    const a = await open(shared);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    a.app.ctx.jobs.register('test.slow', async () => {
      runs += 1;
      await gate;
    });
    await a.app.ctx.jobs.enqueue(
      a.app.ctx.db.kysely,
      'test.slow',
      {},
      { campusId: a.app.ctx.campuses.default.id },
    );
    const running = a.app.ctx.jobs.runDue();
    while (runs === 0) await new Promise((resolve) => setImmediate(resolve));

    const b = await open(shared);
    b.app.ctx.jobs.register('test.slow', async () => {
      runs += 1;
    });
    expect(await b.app.ctx.jobs.runDue()).toBe(0);
    release();
    expect(await running).toBe(1);
    expect(runs).toBe(1);
  });

  it('a sign-up code e-mail is sent before e-mails queued earlier by other activity', async () => {
    const t = await open();
    for (let i = 0; i < 30; i += 1) {
      await inCampus(t.app.ctx.campuses.default.id, () =>
        enqueueMail(t.app.ctx, t.app.ctx.db.kysely, {
          to: `busy-seller-${i}@msu.edu`,
          subject: 'New offer on your listing',
          text: 'Someone offered $12',
          html: '<p>Someone offered $12</p>',
        }),
      );
    }
    const email = `waiting-${Date.now().toString(36)}@msu.edu`;
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: { firstName: 'Wai', lastName: 'Ting', email, password: 'green-and-white-42' },
    });
    expect(signUp.statusCode).toBe(201);

    expect(await t.app.ctx.jobs.runDue({ limit: 1 })).toBe(1);
    await t.mail.waitFor(email);
    expect(t.mail.messages.map((m) => m.to)).toEqual([email]);
    // The rest follow.
    expect(await t.app.ctx.jobs.runDue()).toBe(30);
  });
});
