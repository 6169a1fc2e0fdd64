import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '@campus/contract';
import type { Redis } from 'ioredis';
import { RedisOutbox } from './outbox.js';

/** What one app process tells every process (itself included) after a database write. */
export type ChatEvent =
  | { type: 'message'; message: ChatMessage; userIds: [number, number] }
  /** Tokens of this user older than tokenVersion were revoked: close their sessions. */
  | { type: 'revoke'; userId: number; tokenVersion: number }
  /** A frame for every session of these users (notifications, typing, Seen). */
  | { type: 'user'; userIds: number[]; destination: string; body: string; id: string }
  /** Events may have been lost on the way between processes: every session should fetch again. */
  | { type: 'resync' };

export type ChatEventHandler = (event: ChatEvent) => void;

export interface ChatBroker {
  readonly kind: 'memory' | 'redis';
  /**
   * Delivers to this process at once, and to every other process when scaled out. Resolves once
   * delivered here: the fan-out to other processes never holds up the caller (a SEND's RECEIPT).
   */
  publish(event: ChatEvent): Promise<void>;
  /**
   * False while the link between processes is down or not answering: callers that would read
   * shared state there (presence) keep to this process's view instead of waiting.
   */
  readonly healthy: boolean;
  close(): Promise<void>;
}

/** One process: events go straight to the local handler. */
export class MemoryBroker implements ChatBroker {
  readonly kind = 'memory';
  readonly healthy = true;
  constructor(private readonly handler: ChatEventHandler) {}

  async publish(event: ChatEvent): Promise<void> {
    this.handler(event);
  }

  async close(): Promise<void> {}
}

interface Envelope {
  origin: string;
  event: ChatEvent;
}

export interface BrokerLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Several processes: the local handler runs at once (no round trip for local users, and delivery
 * survives a Redis hiccup), and the event goes through an outbox to a Redis channel for the other
 * processes, which skip their own envelopes. With Redis hung or down the outbox holds the events
 * (in order, bounded) and sends them when it answers again, so a message stored meanwhile still
 * reaches the other processes' sessions. When events were lost anyway (the outbox overflowed, or
 * this process's subscription was down while others published), sessions are told to resync.
 */
export class RedisBroker implements ChatBroker {
  readonly kind = 'redis';
  private readonly origin = randomBytes(8).toString('hex');
  private readonly outbox: RedisOutbox;
  /** The subscription was lost after it had been made: what others published meanwhile is gone. */
  private subscriptionLost = false;
  private subscribed = false;

  private constructor(
    pub: Redis,
    private readonly sub: Redis,
    private readonly channel: string,
    private readonly handler: ChatEventHandler,
    private readonly logger: BrokerLogger,
  ) {
    this.outbox = new RedisOutbox(pub, channel, logger, () =>
      this.outbox.push(this.envelope({ type: 'resync' })),
    );
  }

  /** `redis` is the app's shared command connection; a dedicated subscriber connection is opened. */
  static async start(
    redis: Redis,
    channel: string,
    handler: ChatEventHandler,
    logger: BrokerLogger,
  ): Promise<RedisBroker> {
    const sub = redis.duplicate();
    const broker = new RedisBroker(redis, sub, channel, handler, logger);
    sub.on('message', (ch: string, text: string) => {
      if (ch === channel) broker.receive(text);
    });
    sub.on('error', (err: unknown) => logger.warn({ err }, 'chat redis subscriber error'));
    // The shared connection's errors while Redis is down (the outbox waits for 'ready'): logged,
    // not left to ioredis's "Unhandled error event" on stderr.
    redis.on('error', (err: unknown) => logger.warn({ err }, 'chat redis connection error'));
    sub.on('close', () => {
      if (broker.subscribed) broker.subscriptionLost = true;
    });
    // ioredis subscribes again on reconnect; what was published in between never arrives here.
    sub.on('ready', () => {
      if (!broker.subscriptionLost) return;
      broker.subscriptionLost = false;
      logger.warn({}, 'chat redis subscription restored: asking sessions to resync');
      broker.deliverLocally({ type: 'resync' });
    });
    await sub.subscribe(channel);
    broker.subscribed = true;
    return broker;
  }

  get healthy(): boolean {
    return this.sub.status === 'ready' && this.outbox.healthy;
  }

  async publish(event: ChatEvent): Promise<void> {
    this.handler(event);
    this.outbox.push(this.envelope(event));
  }

  async close(): Promise<void> {
    this.outbox.close();
    this.sub.disconnect();
  }

  private envelope(event: ChatEvent): string {
    const envelope: Envelope = { origin: this.origin, event };
    return JSON.stringify(envelope);
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      this.logger.warn({}, 'chat redis: unreadable envelope');
      return;
    }
    if (envelope.origin === this.origin) return;
    this.deliverLocally(envelope.event);
  }

  private deliverLocally(event: ChatEvent): void {
    try {
      this.handler(event);
    } catch (err) {
      this.logger.error({ err }, 'chat event handler failed');
    }
  }
}
