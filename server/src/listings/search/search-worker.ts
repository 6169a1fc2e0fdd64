/**
 * The search index's thread (worker-index.ts): a LiveSearchIndex over its own database connection,
 * answering the app thread's calls in the order they were posted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../../db/connection.js';
import { LiveSearchIndex } from './live-index.js';
import type { FromSearchWorker, SearchWorkerData, ToSearchWorker } from './worker-index.js';

const port = parentPort;
if (!port) throw new Error('search-worker.ts runs as a worker thread (worker-index.ts starts it)');
const { databaseUrl, dataDir, shard } = workerData as SearchWorkerData;
const db = openDb({ databaseUrl, dataDir });
const index = new LiveSearchIndex(db, { shard });

const reply = (message: FromSearchWorker) => port.postMessage(message);

async function call(message: Extract<ToSearchWorker, { kind: 'call' }>): Promise<void> {
  try {
    const { id, call } = message;
    if (call.method === 'warm') reply({ id, value: await index.warm() });
    else if (call.method === 'search') reply({ id, value: await index.search(...call.args) });
    else reply({ id, value: await index.searchSorted(...call.args) });
  } catch (error) {
    reply({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: ToSearchWorker) => {
  switch (message.kind) {
    case 'call':
      void call(message);
      break;
    case 'apply':
      index.applyRow(message.row);
      break;
    case 'remove':
      index.remove(message.id);
      break;
    case 'forget':
      index.forget(message.id);
      break;
    case 'close':
      // Close the connection cleanly (PostgreSQL logs a dropped socket), then let the thread end.
      void db.close().finally(() => port.close());
      break;
  }
});
