import { MESSAGES, ERROR_CODES } from '@campus/contract';
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
  'login:ip': { points: 40, durationSeconds: 900 },
  'login:account': { points: 10, durationSeconds: 900 },
  'forgot:ip': { points: 10, durationSeconds: 3600 },
  'forgot:account': { points: 3, durationSeconds: 900 },
  'reset:ip': { points: 40, durationSeconds: 900 },
  'reset:account': { points: 15, durationSeconds: 900 },
  'change:account': { points: 10, durationSeconds: 900 },
  // Photos cost disk and CPU: listings and chat uploads share one budget per student.
  'upload:account': { points: 120, durationSeconds: 3600 },
} satisfies Record<string, LimitPolicy>;

export type LimitName = keyof typeof DEFAULT_LIMITS;

/** Counters live in Redis when the app is scaled out, in process memory otherwise. */
export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();

  constructor(options: {
    redis?: Redis;
    keyPrefix: string;
    overrides?: Partial<Record<LimitName, LimitPolicy>>;
  }) {
    for (const [name, base] of Object.entries(DEFAULT_LIMITS) as [LimitName, LimitPolicy][]) {
      const policy = options.overrides?.[name] ?? base;
      const common = {
        points: policy.points,
        duration: policy.durationSeconds,
        keyPrefix: `${options.keyPrefix}rl:${name}`,
      };
      this.limiters.set(
        name,
        options.redis
          ? new RateLimiterRedis({ ...common, storeClient: options.redis, useRedisPackage: false })
          : new RateLimiterMemory(common),
      );
    }
  }

  /** Counts one attempt; throws a 429 with Retry-After once the policy is exhausted. */
  async consume(name: LimitName, key: string): Promise<void> {
    const limiter = this.limiters.get(name);
    if (!limiter) return;
    try {
      await limiter.consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
        throw new HttpError(429, MESSAGES.rateLimited, ERROR_CODES.rateLimited, {
          'retry-after': String(retryAfter),
        });
      }
      throw e;
    }
  }
}
