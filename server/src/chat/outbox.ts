import type { Redis } from 'ioredis';
import type { BrokerLogger } from './broker.js';

/** Events held while Redis is hung or down; past this the oldest are dropped (and a resync sent). */
const OUTBOX_MAX = 10_000;
/** Events per pipelined round trip. */
const BATCH_MAX = 500;
/** A round trip outstanding this long means Redis is not answering: the link counts as unhealthy. */
const STALL_MS = 250;
/** A batch Redis refused is tried again after this long (or as soon as the connection is ready). */
const RETRY_MS = 1_000;

/**
 * The cross-process half of chat fan-out: envelopes waiting to be PUBLISHed on the channel, sent
 * in order, one pipelined batch at a time, only while the connection is ready. Nothing waits on
 * it, so a hung or dead Redis delays the other processes' copies, never a local RECEIPT; what
 * queued meanwhile goes out when Redis answers again.
 */
export class RedisOutbox {
  private readonly queue: string[] = [];
  private inFlight = false;
  private inFlightSince = 0;
  /** Envelopes were dropped (queue full): the other processes must be told to resync. */
  private lost = false;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly onReady = () => this.pump();

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly logger: BrokerLogger,
    /** Called once the queue has drained after a loss: publishes a resync for the others. */
    private readonly onLost: () => void,
  ) {
    redis.on('ready', this.onReady);
  }

  /** Redis is connected and answers within STALL_MS. */
  get healthy(): boolean {
    return (
      this.redis.status === 'ready' && (!this.inFlight || performance.now() - this.inFlightSince < STALL_MS)
    );
  }

  /** Envelopes not yet acknowledged by Redis. */
  get pending(): number {
    return this.queue.length;
  }

  push(envelope: string): void {
    if (this.closed) return;
    this.queue.push(envelope);
    this.trim();
    this.pump();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.redis.off('ready', this.onReady);
  }

  private trim(): void {
    if (this.queue.length <= OUTBOX_MAX) return;
    this.queue.splice(0, this.queue.length - OUTBOX_MAX);
    if (!this.lost) this.logger.error({}, 'chat redis outbox full: dropping the oldest events');
    this.lost = true;
  }

  private pump(): void {
    if (this.inFlight || this.closed || this.queue.length === 0) return;
    // Not connected: the 'ready' listener pumps again; ioredis's own offline queue stays empty.
    if (this.redis.status !== 'ready') return;
    const batch = this.queue.splice(0, BATCH_MAX);
    this.inFlight = true;
    this.inFlightSince = performance.now();
    const pipeline = this.redis.pipeline();
    for (const envelope of batch) pipeline.publish(this.channel, envelope);
    pipeline.exec().then(
      (results) => this.settle(batch, countSent(results)),
      (err: unknown) => {
        this.logger.warn({ err }, 'chat redis publish failed');
        this.settle(batch, 0);
      },
    );
  }

  private settle(batch: string[], sent: number): void {
    this.inFlight = false;
    if (this.closed) return;
    if (sent < batch.length) {
      // Back to the front, in order; tried again when ready (or after RETRY_MS if it already is).
      this.queue.unshift(...batch.slice(sent));
      this.trim();
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.pump(), RETRY_MS);
      this.retry.unref();
      return;
    }
    if (this.queue.length === 0 && this.lost) {
      this.lost = false;
      this.onLost();
    }
    this.pump();
  }
}

/** How many commands of a pipeline succeeded before the first failure. */
function countSent(results: Array<[Error | null, unknown]> | null): number {
  let sent = 0;
  for (const [err] of results ?? []) {
    if (err) break;
    sent++;
  }
  return sent;
}
