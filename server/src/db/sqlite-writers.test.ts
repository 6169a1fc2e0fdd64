import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.js';

/**
 * Another writer on the same SQLite file, in its own thread (what a seed script, a migration or an
 * admin shell is): takes the write lock, holds it `holdMs`, commits.
 */
function otherWriter(file: string, holdMs: number): { locked: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.file);
    db.pragma('busy_timeout = 5000');
    db.exec('begin immediate');
    db.prepare("update deployment set created_at = created_at + 1").run();
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('commit');
    db.close();
    parentPort.postMessage('done');
    `,
    { eval: true, workerData: { file, holdMs } },
  );
  const message = (name: string) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (m) => m === name && resolve());
      worker.on('error', reject);
    });
  return { locked: message('locked'), done: message('done') };
}

describe('SQLite with a second writer on the file', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a transaction that reads, then writes, waits for the other writer instead of failing', async () => {
    t = await createTestApp({ jobWorker: false });
    const db = t.app.ctx.db.kysely;
    const writer = otherWriter(path.join(t.dataDir, 'market.db'), 300);
    await writer.locked;
    // Read first (a snapshot), then write: the shape of most of the app's transactions.
    const result = await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('deployment').select('id').executeTakeFirstOrThrow();
      await trx.updateTable('deployment').set({ id: row.id }).execute();
      return 'committed';
    });
    expect(result).toBe('committed');
    await writer.done;
    // And a request through the app still answers.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
