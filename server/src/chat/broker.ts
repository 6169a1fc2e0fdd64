import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '@campus/contract';
import type { Redis } from 'ioredis';

/** What one app process tells every process (itself included) after a database write. */
export type ChatEvent =
  | { type: 'message'; message: ChatMessage; userIds: [number, number] }
  /** Tokens of this user older than tokenVersion were revoked: close their sessions. */
  | { type: 'revoke'; userId: number; tokenVersion: number }
  /** A frame for every session of these users (notifications, typing, Seen). */
  | { type: 'user'; userIds: number[]; destination: string; body: string; id: string };

export type ChatEventHandler = (event: ChatEvent) => void;

export interface ChatBroker {
  readonly kind: 'memory' | 'redis';
  /** Delivers to this process at once, and to every other process when scaled out. */
  publish(event: ChatEvent): Promise<void>;
  close(): Promise<void>;
}

/** One process: events go straight to the local handler. */
export class MemoryBroker implements ChatBroker {
  readonly kind = 'memory';
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

interface BrokerLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Several processes: the local handler runs at once (no round trip for local users, and delivery
 * survives a Redis hiccup), and the event is published on a Redis channel for the other processes,
 * which skip their own envelopes.
 */
export class RedisBroker implements ChatBroker {
  readonly kind = 'redis';
  private readonly origin = randomBytes(8).toString('hex');

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly channel: string,
    private readonly handler: ChatEventHandler,
    private readonly logger: BrokerLogger,
  ) {}

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
    await sub.subscribe(channel);
    return broker;
  }

  async publish(event: ChatEvent): Promise<void> {
    this.handler(event);
    const envelope: Envelope = { origin: this.origin, event };
    try {
      await this.pub.publish(this.channel, JSON.stringify(envelope));
    } catch (err) {
      // Stored already; the other side catches up with ?after= when it reconnects.
      this.logger.error({ err }, 'chat redis publish failed');
    }
  }

  async close(): Promise<void> {
    this.sub.disconnect();
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
    try {
      this.handler(envelope.event);
    } catch (err) {
      this.logger.error({ err }, 'chat event handler failed');
    }
  }
}
