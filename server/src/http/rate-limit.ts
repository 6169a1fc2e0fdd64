import { MESSAGES, ERROR_CODES, SELLING_LIMITS } from '@campus/contract';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { HttpError } from './errors.js';

export interface LimitPolicy {
  points: number;
  durationSeconds: number;
}

/** Limits for every public auth call, per IP and per account (design §4). */
export const DEFAULT_LIMITS = {
  'signup:ip': { points: 20, durationSeconds: 3600 },
  'signup:account': { points: 5, durationSeconds: 3600 },
  'verify:ip': { points: 40, durationSeconds: 900 },
  'verify:account': { points: 15, durationSeconds: 900 },
  'resend:ip': { points: 20, durationSeconds: 3600 },
  'resend:account': { points: 3, durationSeconds: 600 },
  // Login counts failures only: per client IP, per (account, IP), and a slow
  // per-account ceiling over a day that asks for an e-mailed code instead of locking the owner out.
  'login:ip': { points: 100, durationSeconds: 900 },
  'login:account-ip': { points: 10, durationSeconds: 900 },
  'login:account': { points: 50, durationSeconds: 86_400 },
  'forgot:ip': { points: 10, durationSeconds: 3600 },
  'forgot:account': { points: 3, durationSeconds: 900 },
  'reset:ip': { points: 40, durationSeconds: 900 },
  'reset:account': { points: 15, durationSeconds: 900 },
  'change:account': { points: 10, durationSeconds: 900 },
  // University sign-in: each start stores a pending request and each callback calls the university.
  'sso:ip': { points: 60, durationSeconds: 900 },
  // Photos cost disk and CPU: listings and chat uploads share one budget per student.
  'upload:account': { points: 120, durationSeconds: 3600 },
  // Every listing edit re-matches all saved searches and wanted posts (a job per edit).
  'listing-edit:account': { points: SELLING_LIMITS.editsPerHour, durationSeconds: 3600 },
} satisfies Record<string, LimitPolicy>;

export type LimitName = keyof typeof DEFAULT_LIMITS;

/** How long a counter may wait for Redis before this process counts on its own (design §4). */
export const REDIS_LIMIT_TIMEOUT_MS = 300;
/** After Redis failed or was slow, counters stay in process memory this long before Redis is tried again. */
export const REDIS_LIMIT_RETRY_MS = 2_000;

/** One limit's counters: in Redis when the app is scaled out, always also in process memory. */
interface LimitCounters {
  redis: RateLimiterAbstract | undefined;
  memory: RateLimiterAbstract;
}

/**
 * Counters live in Redis when the app is scaled out, in process memory otherwise. Login and sign-up
 * must not depend on Redis: a command that fails or takes longer than REDIS_LIMIT_TIMEOUT_MS is
 * answered by per-process counters instead, and Redis is left alone for REDIS_LIMIT_RETRY_MS, so a
 * hung Redis costs one short wait per period, not one per request (never a hang, never a 500).
 * Meanwhile each process enforces the limits on its own: a client spread over N processes gets at
 * most N times the policy, which is the price of staying up.
 */
export class RateLimits {
  private readonly counters = new Map<LimitName, LimitCounters>();
  private readonly policies = new Map<LimitName, LimitPolicy>();
  private readonly timeoutMs: number;
  private readonly logger: RateLimitLogger | undefined;
  /** performance.now() before which Redis is skipped (it failed or hung lately). */
  private redisSkippedUntil = 0;

  constructor(options: {
    redis?: Redis;
    keyPrefix: string;
    overrides?: Partial<Record<LimitName, LimitPolicy>>;
    timeoutMs?: number;
    logger?: RateLimitLogger;
  }) {
    this.timeoutMs = options.timeoutMs ?? REDIS_LIMIT_TIMEOUT_MS;
    this.logger = options.logger;
    for (const [name, base] of Object.entries(DEFAULT_LIMITS) as [LimitName, LimitPolicy][]) {
      const policy = options.overrides?.[name] ?? base;
      this.policies.set(name, policy);
      const common = {
        points: policy.points,
        duration: policy.durationSeconds,
        keyPrefix: `${options.keyPrefix}rl:${name}`,
      };
      this.counters.set(name, {
        redis: options.redis
          ? new RateLimiterRedis({
              ...common,
              storeClient: options.redis,
              useRedisPackage: false,
              // Not connected: straight to the per-process counters instead of queueing the command.
              rejectIfRedisNotReady: true,
            })
          : undefined,
        memory: new RateLimiterMemory(common),
      });
    }
  }

  /** Counts one attempt; throws a 429 with Retry-After once the policy is exhausted. */
  async consume(name: LimitName, key: string): Promise<void> {
    try {
      await this.run(name, (limiter) => limiter.consume(key));
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooMany(e.msBeforeNext);
      throw e;
    }
  }

  /** For failure counters: throws the same 429 when `key` has used up its points, without counting. */
  async check(name: LimitName, key: string): Promise<void> {
    const state = await this.run(name, (limiter) => limiter.get(key));
    if (state && state.consumedPoints >= (this.policies.get(name)?.points ?? Infinity)) {
      throw tooMany(state.msBeforeNext);
    }
  }

  /** Whether `key` has used up its points (without counting). */
  async exhausted(name: LimitName, key: string): Promise<boolean> {
    const state = await this.run(name, (limiter) => limiter.get(key));
    return !!state && state.consumedPoints >= (this.policies.get(name)?.points ?? Infinity);
  }

  /** Counts one failure; never throws for an exhausted policy (check() answers that next time). */
  async count(name: LimitName, key: string): Promise<void> {
    try {
      await this.run(name, (limiter) => limiter.consume(key));
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
    }
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.run(name, (limiter) => limiter.delete(key));
  }

  /**
   * Runs `op` on Redis within the time limit, else on the process's own counters. A RateLimiterRes
   * rejection is an answer (the policy is exhausted), not a failure, and passes through.
   */
  private async run<T>(
    name: LimitName,
    op: (limiter: RateLimiterAbstract) => Promise<T>,
  ): Promise<T | undefined> {
    const counters = this.counters.get(name);
    if (!counters) return undefined;
    if (!counters.redis || performance.now() < this.redisSkippedUntil) return op(counters.memory);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([op(counters.redis), timedOut]);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw e;
      if (performance.now() >= this.redisSkippedUntil) {
        this.logger?.warn(
          { error: e instanceof Error ? e.message : String(e) },
          'rate limits: Redis failed or is slow; counting in this process for now',
        );
      }
      this.redisSkippedUntil = performance.now() + REDIS_LIMIT_RETRY_MS;
      return op(counters.memory);
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface RateLimitLogger {
  warn(obj: object, message: string): void;
}

function tooMany(msBeforeNext: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, MESSAGES.rateLimited, ERROR_CODES.rateLimited, {
    'retry-after': String(retryAfter),
  });
}
