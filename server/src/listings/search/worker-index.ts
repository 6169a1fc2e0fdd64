import { Worker } from 'node:worker_threads';
import type { AppContext } from '../../context.js';
import type { SearchShard } from '../search-docs-store.js';
import type { ListingRow } from '../store.js';
import type { ListingSearch } from './listing-search.js';

/** What the worker needs to open its own connection to the app's database. */
export interface SearchWorkerData {
  databaseUrl: string | undefined;
  dataDir: string;
  /** The part of the listings this thread indexes (sharded-index.ts); all when absent. */
  shard?: SearchShard | undefined;
}

type Call =
  | { method: 'warm'; args: [] }
  | { method: 'search'; args: Parameters<ListingSearch['search']> }
  | { method: 'searchSorted'; args: Parameters<ListingSearch['searchSorted']> };

export type ToSearchWorker =
  | { kind: 'call'; id: number; call: Call }
  | { kind: 'apply'; row: ListingRow }
  | { kind: 'remove'; id: number }
  | { kind: 'forget'; id: number }
  | { kind: 'close' };

export type FromSearchWorker = { id: number; value?: unknown } | { id: number; error: string };

/**
 * Bundled (server/dist), this code sits in main.js and the worker is dist/search-worker.js
 * (server/build.mjs). Run from source (tsx: dev, tests, benchmarks) the worker is the .ts file
 * beside this one; Node 20 does not load a worker's .ts entry even with the parent's loader flags,
 * so a small CommonJS stub registers tsx's loader in the worker first, then imports it.
 */
const fromSource = import.meta.url.endsWith('.ts');

function startWorker(data: SearchWorkerData): Worker {
  if (!fromSource) return new Worker(new URL('./search-worker.js', import.meta.url), { workerData: data });
  const entry = new URL('./search-worker.ts', import.meta.url).href;
  const stub = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(stub, { eval: true, workerData: data });
}

/** How long close() waits for the worker to close its connection before ending it. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The search index in a worker thread (docs/decisions.md, "Performance").
 *
 * Building a 100,000-listing index on the app's main thread left that thread measurably slower on
 * every later request, though no request reads the index (docs/performance.md, session 10: the same
 * server without the build answered GET /listing/{id} at 36–38 µs of CPU against 45–50 µs with it).
 * In its own thread the build, the index's memory and each search's work stay out of the isolate
 * that answers HTTP and STOMP; a search costs the app thread two small messages. The index build
 * (1 s at 100k listings, ≈ 20 s at 1M) no longer holds up every request while the server starts,
 * and a long search no longer holds up chat.
 *
 * Ordering is that of one LiveSearchIndex: messages reach the worker in the order they are posted,
 * so a search asked after `applyRow` sees the row. Should the worker stop (a crash), pending calls
 * fail and the next call starts a new worker, which builds the index again from the database.
 */
export class WorkerSearchIndex implements ListingSearch {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private closed = false;

  constructor(
    private readonly data: SearchWorkerData,
    private readonly logger: AppContext['logger'],
  ) {}

  warm(): Promise<void> {
    return this.call({ method: 'warm', args: [] }) as Promise<void>;
  }

  search(...args: Parameters<ListingSearch['search']>): ReturnType<ListingSearch['search']> {
    return this.call({ method: 'search', args }) as ReturnType<ListingSearch['search']>;
  }

  searchSorted(
    ...args: Parameters<ListingSearch['searchSorted']>
  ): ReturnType<ListingSearch['searchSorted']> {
    return this.call({ method: 'searchSorted', args }) as ReturnType<ListingSearch['searchSorted']>;
  }

  /** The worker thread while one runs (tests stop it to check that searches recover). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  applyRow(row: ListingRow): void {
    this.post({ kind: 'apply', row });
  }

  remove(id: number): void {
    this.post({ kind: 'remove', id });
  }

  forget(id: number): void {
    this.post({ kind: 'forget', id });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' } satisfies ToSearchWorker);
    const grace = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }

  private call(call: Call): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the search index is closed'));
    const id = (this.nextId += 1);
    const worker = this.started();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A worker with calls in flight keeps the process alive; an idle one does not.
      worker.ref();
      worker.postMessage({ kind: 'call', id, call } satisfies ToSearchWorker);
    });
  }

  /** Fire-and-forget messages; without a worker there is no index to update (it loads fresh). */
  private post(message: ToSearchWorker): void {
    this.worker?.postMessage(message);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.data);
    worker.unref();
    worker.on('message', (message: FromSearchWorker) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve(message.value);
    });
    worker.on('error', (err) => this.logger.error({ err }, 'the search worker failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      if (!this.closed)
        this.logger.error({ code }, 'the search worker stopped; the next search starts another');
      const error = new Error('the search worker stopped');
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }
}
