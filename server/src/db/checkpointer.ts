import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/**
 * Copies SQLite's write-ahead log back into the database file from a worker thread.
 *
 * With WAL + synchronous=NORMAL a commit does not wait for the disk, but every ~1000 pages the
 * committing connection runs an automatic checkpoint, which writes the log into the database
 * file and fsyncs it — on the main thread, in the middle of a chat SEND or an HTTP answer (it was
 * the tail of the chat benchmark's latency: docs/performance.md). Here the main connection's
 * automatic checkpoint only fires far later (a safety net should the worker die), and a second
 * connection in a worker thread runs PASSIVE checkpoints every `intervalMs`: PASSIVE never blocks
 * readers or writers, and the fsync happens off the event loop. Nothing changes for durability:
 * a committed transaction is in the WAL either way.
 */
export interface Checkpointer {
  /** Resolves after one more checkpoint in the worker (tests). */
  checkpoint(): Promise<{ log: number; checkpointed: number }>;
  stop(): Promise<void>;
}

/** The main connection's own automatic checkpoint, in pages, while the worker runs (~64 MB). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
const run = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    return { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    return { log: -1, checkpointed: -1, error: String(error) };
  }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'checkpoint') parentPort.postMessage({ id: message.id, ...run() });
  if (message.type === 'stop') {
    clearInterval(timer);
    run();
    db.close();
    parentPort.close();
  }
});
`;

export function startCheckpointer(file: string, intervalMs = 1_000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  // The worker only checkpoints: the process must be able to exit while it runs.
  worker.unref();
  let nextId = 0;
  const waiting = new Map<number, (r: { log: number; checkpointed: number }) => void>();
  worker.on('message', (m: { id: number; log: number; checkpointed: number }) => {
    waiting.get(m.id)?.({ log: m.log, checkpointed: m.checkpointed });
    waiting.delete(m.id);
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      for (const answer of waiting.values()) answer({ log: -1, checkpointed: -1 });
      waiting.clear();
      resolve();
    }),
  );
  worker.on('error', (error) => {
    // The main connection's fallback checkpoint keeps the log bounded without the worker.
    process.emitWarning(`SQLite checkpoint worker stopped: ${error.message}`, 'DatabaseWarning');
  });
  return {
    checkpoint: () =>
      new Promise((resolve) => {
        nextId += 1;
        waiting.set(nextId, resolve);
        worker.postMessage({ type: 'checkpoint', id: nextId });
      }),
    stop: async () => {
      worker.postMessage({ type: 'stop' });
      await exited;
    },
  };
}
