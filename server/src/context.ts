import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Campuses } from './campuses/registry.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { DomainEvents } from './events.js';
import type { RateLimits } from './http/rate-limit.js';
import type { TokenService } from './http/tokens.js';
import type { JobQueue } from './jobs/index.js';
import type { Mailer } from './mail/mailer.js';
import type { PhotoStorage } from './media/photo-storage.js';

/** The authenticated caller of a request or STOMP session. */
export interface Principal {
  userId: number;
  email: string;
  tokenVersion: number;
  /** The student's campus: everything they see and do is within it (features.md §E). */
  campusId: number;
}

/** Everything a module's service needs, built once per app instance (tests build one per app). */
export interface AppContext {
  config: Config;
  /** Every campus of the deployment (campuses/registry.ts). */
  campuses: Campuses;
  db: Db;
  clock: () => number;
  mailer: Mailer;
  tokens: TokenService;
  limits: RateLimits;
  /** The typed domain events modules announce and listen to (events.ts): the one list of facts. */
  domainEvents: DomainEvents;
  /** Shared command connection when REDIS_URL is set (rate limits, publishing). */
  redis: Redis | undefined;
  logger: FastifyBaseLogger;
  /** Where stored images live: DATA_DIR/uploads or the bucket (media/photo-storage.ts). */
  photoStorage: PhotoStorage;
  /** Durable jobs (server/src/jobs/): every timed rule and every e-mail. */
  jobs: JobQueue;
  /** Resolves a bearer token to its user, rejecting revoked and expired tokens. */
  authenticate(token: string): Promise<Principal | null>;
  /**
   * The token's user when it was verified moments ago (the token cache), without waiting; undefined
   * means "ask authenticate". Lets the auth hook of hot reads finish synchronously.
   */
  authenticateCached?(token: string): Principal | undefined;
}
