import { randomBytes } from 'node:crypto';
import {
  NOTIFICATION_LIMITS,
  NOTIFY_MESSAGES,
  NOTIFY_STOMP_PATHS,
  ERROR_CODES,
  parseRoomId,
  type PresenceFrame,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import type { ChatModule } from '../chat/index.js';
import { StompAppError } from '../chat/index.js';

/** A process's claim that a user has a session on it lasts this long unless refreshed. */
const CLAIM_TTL_MS = 90_000;
const REFRESH_MS = 30_000;
/** Reads on a chat SEND's path give up on Redis after this long (the per-process view answers). */
const REDIS_READ_DEADLINE_MS = 250;

function withDeadline<T>(op: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('redis read deadline')), ms);
    timer.unref();
  });
  return Promise.race([op, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Who has an open STOMP session (push goes only to students without one), and chat presence:
 * typing and "Seen" frames relayed to the other party, never stored (the read marker is chat's).
 *
 * Across processes: each process keeps, per user with sessions on it, a member of the Redis sorted
 * set `presence:{userId}` scored with an expiry it refreshes; a crashed process's claim lapses.
 */
export class Presence {
  private readonly local = new Map<number, number>();
  private readonly origin = randomBytes(6).toString('hex');
  private readonly typingSeen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly chat: ChatModule,
  ) {}

  start(): void {
    this.chat.stomp.sessionListeners.push((userId, count) => this.sessionsChanged(userId, count));
    this.chat.extensions.userDestinations.add(NOTIFY_STOMP_PATHS.notifications);
    this.chat.extensions.userDestinations.add(NOTIFY_STOMP_PATHS.presence);
    this.chat.extensions.sends.push({
      prefix: NOTIFY_STOMP_PATHS.typingPrefix,
      handle: (session, destination) => this.typing(session.principal!.userId, destination),
    });
    this.ctx.domainEvents.afterCommit('chat.read', ({ userId, roomId, lastReadMessageId }) =>
      this.seen(userId, roomId, lastReadMessageId),
    );
    if (this.ctx.redis) {
      this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    const redis = this.ctx.redis;
    if (!redis) return;
    await Promise.all([...this.local.keys()].map((id) => redis.zrem(this.key(id), this.origin))).catch(
      () => undefined,
    );
  }

  /** Sends a frame to every session of these users on every process. */
  publish(userIds: number[], destination: string, body: unknown): Promise<void> {
    return this.chat.broker.publish({
      type: 'user',
      userIds,
      destination,
      body: JSON.stringify(body),
      id: `${this.origin}-${++this.seq}`,
    });
  }

  /** True while the student has a connected STOMP session on any process. */
  async hasOpenSession(userId: number): Promise<boolean> {
    if ((this.local.get(userId) ?? 0) > 0) return true;
    const redis = this.ctx.redis;
    // Redis hung or down (the chat broker sees it): never hold up the SEND that asked.
    if (!redis || !this.chat.broker.healthy) return false;
    try {
      const count = redis.zcount(this.key(userId), Date.now(), '+inf');
      return (await withDeadline(count, REDIS_READ_DEADLINE_MS)) > 0;
    } catch {
      // Redis down: assume none, so the student is told rather than missing it.
      return false;
    }
  }

  private key(userId: number): string {
    return `${this.ctx.config.keyPrefix}presence:${userId}`;
  }

  private sessionsChanged(userId: number, count: number): void {
    if (count > 0) this.local.set(userId, count);
    else this.local.delete(userId);
    const redis = this.ctx.redis;
    if (!redis) return;
    const op =
      count > 0
        ? redis.zadd(this.key(userId), Date.now() + CLAIM_TTL_MS, this.origin)
        : redis.zrem(this.key(userId), this.origin);
    op.catch((err: unknown) => this.ctx.logger.warn({ err }, 'presence: redis update failed'));
  }

  private async refresh(): Promise<void> {
    const redis = this.ctx.redis;
    if (!redis || this.local.size === 0) return;
    const pipeline = redis.pipeline();
    const expiry = Date.now() + CLAIM_TTL_MS;
    for (const userId of this.local.keys()) {
      pipeline.zadd(this.key(userId), expiry, this.origin);
      pipeline.pexpire(this.key(userId), CLAIM_TTL_MS * 2);
    }
    await pipeline.exec().catch((err: unknown) => this.ctx.logger.warn({ err }, 'presence refresh failed'));
  }

  /**
   * SEND /app/chat.typing/{roomId}: relayed to the other member at most once per 3 s per room and
   * sender (across processes with Redis); extra frames are dropped quietly.
   */
  private async typing(userId: number, destination: string): Promise<void> {
    const roomId = destination.slice(NOTIFY_STOMP_PATHS.typingPrefix.length);
    const pair = parseRoomId(roomId);
    if (!pair || (pair[0] !== userId && pair[1] !== userId)) {
      throw new StompAppError(NOTIFY_MESSAGES.typingForbidden, ERROR_CODES.forbidden);
    }
    // Only inside an existing conversation, never across a block (403s become errors-queue refusals).
    await this.chat.service.assertOpenConversation(userId, roomId);
    if (!(await this.takeTypingSlot(userId, roomId))) return;
    const peer = pair[0] === userId ? pair[1] : pair[0];
    const frame: PresenceFrame = { type: 'typing', roomId, userId };
    await this.publish([peer], NOTIFY_STOMP_PATHS.presence, frame);
  }

  private async takeTypingSlot(userId: number, roomId: string): Promise<boolean> {
    const interval = NOTIFICATION_LIMITS.typingIntervalMs;
    const redis = this.ctx.redis;
    if (redis && this.chat.broker.healthy) {
      try {
        const key = `${this.ctx.config.keyPrefix}typing:${roomId}:${userId}`;
        const set = redis.set(key, '1', 'PX', interval, 'NX');
        return (await withDeadline(set, REDIS_READ_DEADLINE_MS)) === 'OK';
      } catch {
        // Fall through to the per-process rule.
      }
    }
    const now = this.ctx.clock();
    const key = `${roomId}:${userId}`;
    const last = this.typingSeen.get(key);
    if (last !== undefined && now - last < interval) return false;
    this.typingSeen.set(key, now);
    if (this.typingSeen.size > 10_000) {
      for (const [k, t] of this.typingSeen) if (now - t >= interval) this.typingSeen.delete(k);
    }
    return true;
  }

  private async seen(userId: number, roomId: string, lastReadMessageId: number): Promise<void> {
    const pair = parseRoomId(roomId);
    if (!pair) return;
    const peer = pair[0] === userId ? pair[1] : pair[0];
    const frame: PresenceFrame = { type: 'seen', roomId, userId, lastReadMessageId };
    await this.publish([peer], NOTIFY_STOMP_PATHS.presence, frame);
  }
}
