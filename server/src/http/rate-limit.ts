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
  // Login counts failures only (issue 8, item 9): per client IP, per (account, IP), and a slow
  // per-account ceiling over a day that asks for an e-mailed code instead of locking the owner out.
  'login:ip': { points: 100, durationSeconds: 900 },
  'login:account-ip': { points: 10, durationSeconds: 900 },
  'login:account': { points: 50, durationSeconds: 86_400 },
  'forgot:ip': { points: 10, durationSeconds: 3600 },
  'forgot:account': { points: 3, durationSeconds: 900 },
  'reset:ip': { points: 40, durationSeconds: 900 },
  'reset:account': { points: 15, durationSeconds: 900 },
  'change:account': { points: 10, durationSeconds: 900 },
  // Photos cost disk and CPU: listings and chat uploads share one budget per student.
  'upload:account': { points: 120, durationSeconds: 3600 },
  // Every listing edit re-matches all saved searches and wanted posts (a job per edit).
  'listing-edit:account': { points: SELLING_LIMITS.editsPerHour, durationSeconds: 3600 },
} satisfies Record<string, LimitPolicy>;

export type LimitName = keyof typeof DEFAULT_LIMITS;

/** Counters live in Redis when the app is scaled out, in process memory otherwise. */
export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();
  private readonly policies = new Map<LimitName, LimitPolicy>();

  constructor(options: {
    redis?: Redis;
    keyPrefix: string;
    overrides?: Partial<Record<LimitName, LimitPolicy>>;
  }) {
    for (const [name, base] of Object.entries(DEFAULT_LIMITS) as [LimitName, LimitPolicy][]) {
      const policy = options.overrides?.[name] ?? base;
      this.policies.set(name, policy);
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
      if (e instanceof RateLimiterRes) throw tooMany(e.msBeforeNext);
      throw e;
    }
  }

  /** For failure counters: throws the same 429 when `key` has used up its points, without counting. */
  async check(name: LimitName, key: string): Promise<void> {
    const state = await this.limiters.get(name)?.get(key);
    if (state && state.consumedPoints >= (this.policies.get(name)?.points ?? Infinity)) {
      throw tooMany(state.msBeforeNext);
    }
  }

  /** Whether `key` has used up its points (without counting). */
  async exhausted(name: LimitName, key: string): Promise<boolean> {
    const state = await this.limiters.get(name)?.get(key);
    return !!state && state.consumedPoints >= (this.policies.get(name)?.points ?? Infinity);
  }

  /** Counts one failure; never throws for an exhausted policy (check() answers that next time). */
  async count(name: LimitName, key: string): Promise<void> {
    try {
      await this.limiters.get(name)?.consume(key);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
    }
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.limiters.get(name)?.delete(key);
  }
}

function tooMany(msBeforeNext: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, MESSAGES.rateLimited, ERROR_CODES.rateLimited, {
    'retry-after': String(retryAfter),
  });
}
