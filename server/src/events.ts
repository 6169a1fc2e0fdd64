import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';

/** A Kysely handle inside a transaction opened by `DomainEvents.transaction`. */
export type Trx = Kysely<Database>;

/**
 * Every fact one module announces and other modules react to, with what a listener is told.
 * Modules announce; `app.ts` subscribes listeners at wiring time. A module never calls another
 * module's reaction directly: it announces the fact and whoever cares listens.
 *
 * Each event is delivered in two phases (one rule, written once, in `DomainEvents`):
 * - in the transaction: listeners that write consequences which must commit or roll back with
 *   the fact (a notification row, a durable job); a listener that throws aborts the write;
 * - after commit: listeners that follow durable state (search index, caches, the live broker,
 *   pushes); they never undo the write and their errors are logged.
 *
 * Modules extend this map by declaration merging next to where they announce
 * (`declare module '../events.js' { interface DomainEventMap { ... } }`), so the list stays typed
 * and each entry lives beside its announcer; `docs/architecture.md` lists them all.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface DomainEventMap {}

export type DomainEventName = keyof DomainEventMap;

type InTransactionListener<K extends DomainEventName> = (trx: Trx, fact: DomainEventMap[K]) => Promise<void>;
type AfterCommitListener<K extends DomainEventName> = (fact: DomainEventMap[K]) => void | Promise<void>;

/** What one open transaction has announced so far, delivered after it commits. */
type Pending = Array<() => void | Promise<void>>;

export class DomainEvents {
  private readonly inTransactionListeners = new Map<DomainEventName, Array<InTransactionListener<never>>>();
  private readonly afterCommitListeners = new Map<DomainEventName, Array<AfterCommitListener<never>>>();
  private readonly open = new WeakMap<Trx, Pending>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Reacts inside the announcing transaction (consequences that must commit with the fact). */
  inTransaction<K extends DomainEventName>(name: K, listener: InTransactionListener<K>): void {
    const list = this.inTransactionListeners.get(name) ?? [];
    list.push(listener as InTransactionListener<never>);
    this.inTransactionListeners.set(name, list);
  }

  /** Reacts once the announcing transaction has committed (indexes, caches, broker, pushes). */
  afterCommit<K extends DomainEventName>(name: K, listener: AfterCommitListener<K>): void {
    const list = this.afterCommitListeners.get(name) ?? [];
    list.push(listener as AfterCommitListener<never>);
    this.afterCommitListeners.set(name, list);
  }

  /**
   * Runs `work` in one database transaction in which facts may be announced. After-commit
   * listeners run, in announcement order, once it has committed and before this resolves, so a
   * caller answering the client already sees the index and caches follow; none run if it rolls back.
   */
  async transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    const pending: Pending = [];
    const result = await this.db.transaction().execute(async (trx) => {
      this.open.set(trx, pending);
      try {
        return await work(trx);
      } finally {
        this.open.delete(trx);
      }
    });
    for (const deliver of pending) {
      try {
        await deliver();
      } catch (err) {
        this.logger.error({ err }, 'an after-commit listener failed; the write itself stands');
      }
    }
    return result;
  }

  /**
   * Announces a fact inside a transaction opened by `transaction`: in-transaction listeners run now
   * (one that throws aborts the whole write), after-commit listeners once it commits.
   */
  async announce<K extends DomainEventName>(trx: Trx, name: K, fact: DomainEventMap[K]): Promise<void> {
    const pending = this.open.get(trx);
    if (!pending) {
      throw new Error(`"${String(name)}" was announced outside a transaction opened by DomainEvents`);
    }
    for (const listener of this.inTransactionListeners.get(name) ?? []) {
      await (listener as InTransactionListener<K>)(trx, fact);
    }
    for (const listener of this.afterCommitListeners.get(name) ?? []) {
      pending.push(() => (listener as AfterCommitListener<K>)(fact));
    }
  }

  /**
   * Announces a fact whose write has already committed without a transaction of ours (a single
   * statement, or a fact relayed from another process): only after-commit listeners exist for such
   * facts, so an in-transaction listener for one is a wiring mistake and throws here.
   */
  async announceCommitted<K extends DomainEventName>(name: K, fact: DomainEventMap[K]): Promise<void> {
    if (this.inTransactionListeners.get(name)?.length) {
      throw new Error(`"${String(name)}" has in-transaction listeners; announce it inside a transaction`);
    }
    for (const listener of this.afterCommitListeners.get(name) ?? []) {
      try {
        await (listener as AfterCommitListener<K>)(fact);
      } catch (err) {
        this.logger.error({ err }, 'an after-commit listener failed; the write itself stands');
      }
    }
  }
}
