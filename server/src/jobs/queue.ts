import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { acrossCampuses, currentCampusId, currentScope, inCampus } from '../db/campus-scope.js';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { interleave, planRound, runPool } from './rounds.js';
import * as store from './store.js';

/** `ctx.db.kysely` or a Kysely transaction: a job enqueued in a transaction exists only if it commits. */
export type JobExecutor = Kysely<Database>;

export type JobHandler<P> = (payload: P) => Promise<void>;

export interface EnqueueOptions {
  /** Epoch ms; defaults to now (ctx.clock()). */
  runAt?: number;
  /** Unique while the job is pending or running: a second enqueue with the same key is ignored. */
  key?: string;
  /** Attempts before the job is kept as failed; default JOB_DEFAULTS.maxAttempts. */
  maxAttempts?: number;
  /** Higher is claimed first among due jobs, whatever their campus; default JOB_PRIORITY.normal. */
  priority?: JobPriority;
  /**
   * The campus the job works for (it runs in that campus's scope). Defaults to the campus in scope;
   * name it only to file a job for another campus from work across campuses (start-up, a sweep).
   * On PostgreSQL a transaction scoped to one campus cannot file a job for another (row security).
   */
  campusId?: number;
}

/**
 * Lanes of the queue. A sign-up, verification, reset or login code is what a person is waiting for
 * on the screen: its e-mail (and the jobs that produce one) must never queue behind the e-mails
 * and notifications of a burst of offers.
 */
export const JOB_PRIORITY = {
  normal: 0,
  code: 10,
} as const;
/** The lanes are these few, so the worker can look at each campus's lanes one by one (store.dueLanes). */
export type JobPriority = (typeof JOB_PRIORITY)[keyof typeof JOB_PRIORITY];
const LANES: readonly JobPriority[] = Object.values(JOB_PRIORITY);

export const JOB_DEFAULTS = {
  maxAttempts: 10,
  /** First retry after 5 s, doubling, at most 1 h apart (10 attempts ≈ 42 min in all). */
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
  /**
   * A claimed job is someone else's for this long; after that it is claimed again (its process
   * crashed). The worker renews the lease of the jobs in hand every third of it, so a slow handler
   * keeps its jobs while a dead process's jobs are free within a minute. A dead process on this host
   * loses its claims at once, when the next app starts (reclaimDead).
   */
  leaseMs: 60_000,
  /** How often an idle worker looks for due jobs (real time). */
  pollMs: 1_000,
  /**
   * Jobs per round, shared evenly by the campuses served in it (at least one each), and the most
   * jobs that run at once (rounds.ts).
   */
  batchSize: 10,
} as const;

export interface JobQueueOptions {
  db: Db;
  clock: () => number;
  logger: FastifyBaseLogger;
  /** Run the background worker (poll loop). Tests that drive jobs with runDue() turn it off. */
  worker?: boolean;
  pollMs?: number;
  leaseMs?: number;
}

/** Delay before attempt `attempts + 1`, given `attempts` already failed (attempts ≥ 1). */
export function backoffMs(attempts: number): number {
  return Math.min(JOB_DEFAULTS.backoffMaxMs, JOB_DEFAULTS.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * The durable job queue: jobs live in the app's own database, so they are enqueued in the
 * same transaction as the change that causes them, survive restarts, and need no extra server.
 *
 * Exactly once across processes: a job is claimed by one atomic UPDATE that sets `locked_until`
 * (PostgreSQL picks the rows with `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the
 * same row; SQLite has one writer, so the statement is atomic by itself). Success deletes the row;
 * failure reschedules it with exponential back-off; a claim whose lease ran out (crashed process) is
 * claimed again. Within a process, runs are serialised, so runDue() and the poll loop never overlap.
 *
 * Every job belongs to one campus and runs as work of it (db/campus-scope.ts). The worker claims in
 * rounds that serve every campus with due jobs in turn, codes first (rounds.ts).
 *
 * At-least-once in the face of crashes: a process that dies after the handler's side effect but
 * before deleting the row runs it again after the lease. Handlers should tolerate that.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  /** `w-{host}-{pid}-{random}`: lets a later process on this host tell whether the owner is alive. */
  private readonly workerId = workerIdFor(process.pid);
  /** Claimed and not yet finished by this worker: their lease is renewed while they run. */
  private readonly inHand = new Set<number>();
  private renewTimer: NodeJS.Timeout | undefined;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private running = false;
  /** A kick arrived during a round: look again right after it instead of waiting a poll period. */
  private kickedWhileRunning = false;
  private stopped = true;
  /** The campus served first in the last round: the next round starts after it (rounds.ts). */
  private servedFirst: number | undefined;

  constructor(private readonly options: JobQueueOptions) {
    this.leaseMs = options.leaseMs ?? JOB_DEFAULTS.leaseMs;
    this.pollMs = options.pollMs ?? JOB_DEFAULTS.pollMs;
    liveWorkers.add(this.workerId);
  }

  /**
   * Frees the claims of processes that died holding them, so their jobs run now instead of after
   * the lease (called once at start-up, before the worker starts). Only owners on this host can be
   * checked: a claim is freed when its process is not running, or when it names this very process
   * but no queue in it (a previous process that had the same pid, e.g. pid 1 in a restarted
   * container). Claims from other hosts (PostgreSQL) wait for their lease, which their live owner
   * keeps renewing.
   */
  async reclaimDead(): Promise<number> {
    // The queue itself spans campuses: claims and leases are read and written across them.
    const owners = await acrossCampuses(() => store.claimOwners(this.options.db.kysely));
    const dead = owners.filter((owner) => !ownerMayBeAlive(owner));
    if (dead.length === 0) return 0;
    const freed = await acrossCampuses(() => store.releaseClaims(this.options.db.kysely, dead));
    if (freed > 0) this.options.logger.info({ jobs: freed }, 'jobs of a stopped process claimed again');
    return freed;
  }

  register<P>(type: string, handler: JobHandler<P>): void {
    if (this.handlers.has(type)) throw new Error(`job type ${type} is already registered`);
    this.handlers.set(type, handler as JobHandler<unknown>);
  }

  /**
   * Files a job for the campus in scope (or `options.campusId`). A job with no campus is a
   * programming error, refused here with the job's type rather than by the database later.
   */
  async enqueue<P>(
    executor: JobExecutor,
    type: string,
    payload: P,
    options: EnqueueOptions = {},
  ): Promise<void> {
    const campusId = jobCampus(`enqueue("${type}")`, options.campusId);
    // For a plain connection this also makes it carry that campus (PostgreSQL row security).
    await inCampus(campusId, () =>
      store.insertJob(executor, {
        campusId,
        type,
        payload: JSON.stringify(payload ?? null),
        runAt: options.runAt ?? this.options.clock(),
        key: options.key ?? null,
        maxAttempts: options.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
        priority: options.priority ?? JOB_PRIORITY.normal,
        now: this.options.clock(),
      }),
    );
    // The transaction usually commits within milliseconds; look again shortly after.
    this.kick();
  }

  /**
   * Drops a pending job by key (a running one finishes): of the campus in scope or `campusId`;
   * across campuses (an operator's action) whichever campus holds the key, keys being unique.
   */
  async cancel(executor: JobExecutor, key: string, options: { campusId?: number } = {}): Promise<void> {
    const given = options.campusId ?? currentCampusId();
    if (given === undefined && currentScope()) return store.deleteByKey(executor, null, key);
    const campusId = jobCampus(`cancel("${key}")`, given);
    await inCampus(campusId, () => store.deleteByKey(executor, campusId, key));
  }

  /** Asks the worker to look for due jobs soon (call after committing a transaction that enqueued). */
  kick(): void {
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      if (this.running) this.kickedWhileRunning = true;
      else this.tick();
    }, 10);
    this.kickTimer.unref();
  }

  /**
   * Runs every job due at clock() now, in this process; resolves with how many ran (tests).
   * `types` limits it to those job types (e.g. a test helper sending only the mail).
   */
  runDue(options: { types?: readonly string[]; limit?: number } = {}): Promise<number> {
    return this.serialised(() => this.drain(options.types, options.limit));
  }

  start(): void {
    if (this.options.worker === false || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the jobs in hand to finish (called before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    await this.chain.catch(() => undefined);
    liveWorkers.delete(this.workerId);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    if (this.stopped || this.running) return;
    this.running = true;
    clearTimeout(this.timer);
    this.serialised(() => this.drain())
      .catch((err: unknown) => this.options.logger.error({ err }, 'job worker round failed'))
      .finally(() => {
        this.running = false;
        const again = this.kickedWhileRunning;
        this.kickedWhileRunning = false;
        this.schedule(again ? 0 : this.pollMs);
      });
  }

  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.catch(() => undefined).then(fn);
    this.chain = next;
    return next;
  }

  private async drain(types?: readonly string[], limit = Infinity): Promise<number> {
    let ran = 0;
    this.renewTimer = setInterval(() => this.renewLeases(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
    try {
      while (ran < limit) {
        const jobs = await this.claimRound(types, limit - ran);
        if (jobs.length === 0) return ran;
        for (const job of jobs) this.inHand.add(job.id);
        await runPool(jobs, JOB_DEFAULTS.batchSize, (job) =>
          this.runOne(job).finally(() => this.inHand.delete(job.id)),
        );
        ran += jobs.length;
      }
      return ran;
    } finally {
      clearInterval(this.renewTimer);
    }
  }

  /**
   * One round (rounds.ts): the highest due priority, an equal share for each campus that has jobs
   * of it, campuses in rotation. Which campuses have due jobs is read across campuses; each
   * campus's share is claimed as work of that campus.
   */
  private async claimRound(types: readonly string[] | undefined, limit: number): Promise<store.ClaimedJob[]> {
    const now = this.options.clock();
    const db = this.options.db;
    const lanes = await acrossCampuses(() => store.dueLanes(db.kysely, { now, types, priorities: LANES }));
    const plan = planRound(lanes, this.servedFirst, JOB_DEFAULTS.batchSize, limit);
    if (!plan) return [];
    this.servedFirst = plan.shares[0]?.campusId;
    const claimed: store.ClaimedJob[][] = [];
    for (const share of plan.shares) {
      claimed.push(
        await inCampus(share.campusId, () =>
          store.claimDue(db, {
            now,
            types,
            campusId: share.campusId,
            priority: plan.priority,
            lockedUntil: now + this.leaseMs,
            workerId: this.workerId,
            limit: share.take,
          }),
        ),
      );
    }
    return interleave(claimed);
  }

  /** Keeps the claims of the jobs still running (a slow handler is not a dead process). */
  private renewLeases(): void {
    if (this.inHand.size === 0) return;
    acrossCampuses(() =>
      store.renewClaims(
        this.options.db.kysely,
        this.workerId,
        [...this.inHand],
        this.options.clock() + this.leaseMs,
      ),
    ).catch((err: unknown) => this.options.logger.warn({ err }, 'job lease renewal failed'));
  }

  /** A job runs as work of its campus: what it reads and writes is that campus's. */
  private runOne(job: store.ClaimedJob): Promise<void> {
    return inCampus(Number(job.campus_id), () => this.runInCampus(job));
  }

  private async runInCampus(job: store.ClaimedJob): Promise<void> {
    const db = this.options.db.kysely;
    const handler = this.handlers.get(job.type);
    try {
      if (!handler) throw new Error(`no handler registered for job type ${job.type}`);
      await handler(JSON.parse(job.payload) as unknown);
      await store.complete(db, job.id, this.workerId);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = this.options.clock();
      const giveUp = job.attempts >= job.max_attempts;
      // Type and id only: payloads may hold a code or an address, which never go to a log.
      this.options.logger[giveUp ? 'error' : 'warn'](
        { jobId: job.id, jobType: job.type, attempt: job.attempts, error: message },
        giveUp ? 'job failed for good' : 'job failed; will retry',
      );
      await store.fail(db, job.id, this.workerId, {
        error: message.slice(0, 1000),
        now,
        retryAt: giveUp ? null : now + backoffMs(job.attempts),
      });
    }
  }
}

/** The campus a job is filed or cancelled under: the given one, else the scope's; never none. */
function jobCampus(what: string, given: number | undefined): number {
  const campusId = given ?? currentCampusId();
  if (campusId === undefined) {
    throw new Error(
      `JobQueue.${what} with no campus: a job belongs to one campus; run it inside inCampus() or pass { campusId }`,
    );
  }
  return campusId;
}

/** Worker ids of the queues alive in this process (several apps share one process in tests). */
const liveWorkers = new Set<string>();
const HOST =
  hostname()
    .replace(/[^A-Za-z0-9.]/g, '')
    .slice(0, 32) || 'host';

export function workerIdFor(pid: number): string {
  return `w-${HOST}-${pid}-${randomBytes(4).toString('hex')}`;
}

/** False only when the claim's owner is known to be gone (see JobQueue.reclaimDead). */
export function ownerMayBeAlive(owner: string): boolean {
  const m = /^w-(.+)-(\d+)-[0-9a-f]+$/.exec(owner);
  if (!m || m[1] !== HOST) return true;
  const pid = Number(m[2]);
  if (pid === process.pid) return liveWorkers.has(owner);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process with that pid runs under another user: it may be ours, leave it.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
