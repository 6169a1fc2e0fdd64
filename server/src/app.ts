import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { AccountsService, accountsRoutes } from './accounts/index.js';
import { loadCampuses, registerCampuses } from './campuses/index.js';
import { MessageKinds, registerChat, type ChatOptions } from './chat/index.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDb, type Db } from './db/connection.js';
import { DomainEvents } from './events.js';
import { migrateToLatest } from './db/migrate.js';
import { registerErrorHandler } from './http/errors.js';
import { FastLane } from './http/fast-lane.js';
import { registerTextGuard } from './http/text-guard.js';
import { doc, registerOpenApi } from './http/openapi.js';
import { REDIS_LIMIT_TIMEOUT_MS, RateLimits, type LimitName, type LimitPolicy } from './http/rate-limit.js';
import { LevelAwareLogController, lazyRequestLogger, writesInfo } from './http/request-logger.js';
import { registerResponseHeaders, requestIdGenerator } from './http/security-headers.js';
import { TokenService } from './http/tokens.js';
import { JobQueue } from './jobs/index.js';
import { memorySearch, postgresSearch, registerListings } from './listings/index.js';
import { registerSelling } from './selling/index.js';
import { registerMovingOut } from './moving-out/index.js';
import { registerTrust } from './trust/index.js';
import { dealCardKinds, registerDeals } from './deals/index.js';
import { registerClaims, type ClaimsOptions } from './claims/index.js';
import { checkLogin, registerSafety, safetyGuards } from './safety/index.js';
import { announceDealMessage, registerNotifications } from './notifications/index.js';
import { createMailer, outboxRoutes, registerMailJobs, type Mailer } from './mail/index.js';
import {
  createPhotoStorage,
  registerMediaJobs,
  scheduleOrphanSweeps,
  sweepWorkingFiles,
  type BucketTimeouts,
} from './media/index.js';
import { registerShare } from './share/index.js';
import { registerSso, requestLogLine } from './sso/index.js';
import { registerWeb } from './web/index.js';

export interface BuildOptions {
  /** Milliseconds since the epoch; tests inject a movable clock. */
  clock?: () => number;
  rateLimits?: Partial<Record<LimitName, LimitPolicy>>;
  mailer?: Mailer;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * Run the background job worker (default true). Tests that drive jobs step by step with
   * `ctx.jobs.runDue()` turn it off.
   */
  jobWorker?: boolean;
  /** Chat/STOMP settings (tests inject timers; the benchmark raises limits). */
  chat?: ChatOptions;
  /** Where the built web app lives; defaults to web/dist beside the server package. */
  webDist?: string;
  /** How long a page may take to render on the server before the plain shell is sent instead. */
  pageRenderBudgetMs?: number;
  /** SQLite: WAL checkpoints in a worker thread, off the event loop (the server's main.ts). */
  backgroundCheckpoint?: boolean;
  /**
   * Keep the search index in a worker thread (listings/search/worker-index.ts). Default: yes,
   * except with NODE_ENV=test, where most tests build many apps and search in-process.
   */
  searchWorker?: boolean;
  /** Claims on free items (tests inject the draw's random source). */
  claims?: ClaimsOptions;
  /** Bounds of calls to the photo bucket (tests shorten them; media/bucket-storage.ts). */
  bucketTimeouts?: Partial<BucketTimeouts>;
  /**
   * The daily sweep of stored images no row names (media/orphans.ts). `schedule`: file the next
   * run at start-up (default: outside NODE_ENV=test, where tests that move the clock by days would
   * see it among their jobs; the sweep's tests file it themselves). `pageSize`: files per run.
   */
  orphanSweep?: { schedule?: boolean; pageSize?: number };
  /**
   * Load the memory search index at start-up, /readyz answering 503 until it is loaded (default:
   * outside NODE_ENV=test; listings/readiness.ts).
   */
  loadSearchIndexAtStart?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** The hottest reads, answered before routing when all they need is in memory (http/fast-lane.ts). */
    fastLane: FastLane;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

/** Builds the whole app: database (migrated), services, routes, static web. Does not listen. */
export async function buildApp(given: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const genReqId = requestIdGenerator();
  const fastLane = new FastLane();
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: given.logLevel,
            // Never a password, code or token in a log line.
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["x-auth-token"]'],
            // University sign-in's callback carries a code in its query string: never logged.
            serializers: { req: requestLogLine },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    genReqId,
    serverFactory: fastLane.serverFactory,
    childLoggerFactory: lazyRequestLogger,
    logController: new LevelAwareLogController(),
    trustProxy: given.trustProxy,
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });

  const db = openDb({ ...given, backgroundCheckpoint: options.backgroundCheckpoint });
  await migrateToLatest(db);
  await db.enforceRowSecurity(given.nodeEnv === 'production');
  await db.refreshPlannerStats();
  // Listings grow from a handful to many thousands: re-check the planner's statistics hourly.
  const plannerStats = setInterval(() => {
    db.refreshPlannerStats().catch((err: unknown) => app.log.warn({ err }, 'planner statistics'));
  }, 3_600_000);
  plannerStats.unref();
  app.addHook('onClose', async () => clearInterval(plannerStats));
  const config: Config = { ...given, keyPrefix: given.keyPrefix || (await deploymentPrefix(db)) };
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  // ioredis reconnects by itself; without a listener each failed attempt is printed to stderr.
  redis?.on('error', (err: unknown) => app.log.warn({ err }, 'redis connection error'));
  // Rate-limit counters get their own connection that never queues a command while Redis is away
  // and gives up on a hung one quickly: login and sign-up fall back to per-process counters.
  const limitsRedis = redis?.duplicate({
    enableOfflineQueue: false,
    commandTimeout: REDIS_LIMIT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
  });
  limitsRedis?.on('error', (err: unknown) => app.log.debug({ err }, 'rate-limit redis connection error'));
  const clock = options.clock ?? Date.now;
  const campuses = await loadCampuses(db, config.campuses, clock());
  const photoStorage = await createPhotoStorage(config, campuses, clock, options.bucketTimeouts);
  // What a crashed process left half-received in this DATA_DIR (the daily sweep does it again).
  await sweepWorkingFiles(config.dataDir, clock());
  const ctx: AppContext = {
    config,
    campuses,
    db,
    clock,
    photoStorage,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        logger: app.log,
      }),
    tokens: new TokenService(config.jwtSecret, clock),
    limits: new RateLimits({
      redis: limitsRedis,
      keyPrefix: config.keyPrefix,
      overrides: options.rateLimits,
      logger: app.log,
    }),
    domainEvents: new DomainEvents(db.kysely, app.log),
    redis,
    logger: app.log,
    jobs: new JobQueue({ db, clock, logger: app.log, worker: options.jobWorker }),
    authenticate: async () => null,
  };
  registerMailJobs(ctx);
  registerMediaJobs(ctx, { orphanPageSize: options.orphanSweep?.pageSize });
  // Safety decides who may log in (suspension, student status); accounts never imports it.
  const accounts = new AccountsService(ctx, { checkLogin: (user) => checkLogin(ctx, user) });
  ctx.authenticate = (token) => accounts.authenticate(token);
  ctx.authenticateCached = (token) => accounts.cachedPrincipal(token);
  app.decorate('ctx', ctx);
  app.decorateRequest('principal', null);

  // Security headers (the policy of @fastify/helmet, precomputed) and x-request-id on every answer.
  const headers = registerResponseHeaders(
    app,
    config.nodeEnv === 'production',
    config.publicUrl,
    photoStorage.imageOrigins,
  );
  fastLane.configure({
    headers,
    requestId: genReqId,
    authenticateCached: (token) => accounts.cachedPrincipal(token),
    logsRequests: () => writesInfo(app.log),
  });
  app.decorate('fastLane', fastLane);
  // Fastify answers 503 once closing: so must every request, the lane's included.
  app.addHook('preClose', (done) => {
    fastLane.close();
    done();
  });
  app.addHook('onClose', async () => {
    // The worker finishes the jobs in hand before the mailer and the database close.
    await ctx.jobs.stop();
    await ctx.mailer.close();
    await db.close();
    photoStorage.close();
    redis?.disconnect();
    limitsRedis?.disconnect();
  });

  registerErrorHandler(app);
  // Before every route: a NUL character in any JSON body, query or path parameter is a 400.
  registerTextGuard(app);
  // @fastify/multipart is registered by the upload routes only (http/uploads.ts).

  // Before every route: the OpenAPI generator collects routes as they are registered.
  await registerOpenApi(app, { title: 'Campus Market' });

  const ops = { tag: 'operations', errors: [] } as const;
  app.get(
    '/healthz',
    doc({ ...ops, summary: 'Liveness', response: z.object({ status: z.literal('ok') }) }),
    async () => ({
      status: 'ok',
    }),
  );
  await registerCampuses(app, ctx);
  await app.register(accountsRoutes(ctx, accounts));
  await registerSso(app, ctx, accounts);
  // Each module is built after what it is given, so nothing is assigned later: safety's checks
  // first (chat and listings run them before they write), then chat, deals (the sold toggle
  // listings hands over), listings and the modules built on it. Consequences travel as domain
  // events instead (events.ts; docs/architecture.md, "Domain events"), subscribed as each registers.
  const guards = safetyGuards(ctx);
  // Chat shows the cards other modules own through its registry of message kinds.
  const messageKinds = new MessageKinds(dealCardKinds(ctx.db.kysely, ctx.photoStorage));
  const chat = await registerChat(app, ctx, { messageKinds, sendGuard: guards.chatSend }, options.chat);
  const deals = await registerDeals(app, ctx, chat);
  const listings = await registerListings(
    app,
    ctx,
    {
      search:
        config.searchEngine === 'postgres'
          ? await postgresSearch(ctx)
          : memorySearch(ctx, options.searchWorker ?? config.nodeEnv !== 'test'),
      loadIndexAtStart: options.loadSearchIndexAtStart,
    },
    {
      checkWrite: (principal, text, kind) => guards.checkListingWrite(principal, text, kind),
      hiddenSellers: guards.blockedSellers,
      toggleSold: (sellerId, listingId) => deals.sold.toggle(sellerId, listingId),
    },
  );
  app.get(
    '/readyz',
    doc({
      ...ops,
      summary: 'Readiness (database reachable, search index loaded)',
      response: z.object({ status: z.literal('ready'), database: z.enum(['sqlite', 'postgres']) }),
      errors: [503],
    }),
    async (_request, reply) => {
      try {
        await db.ping();
      } catch {
        return reply.code(503).send({ message: 'Database unreachable', code: 'NOT_READY' });
      }
      // The memory engine loading its index at start-up: a search now would wait minutes.
      if (!listings.searchReady())
        return reply.code(503).send({ message: 'Search index still loading', code: 'NOT_READY' });
      return { status: 'ready', database: db.dialect };
    },
  );
  await registerClaims(app, ctx, deals, options.claims);
  await registerSelling(app, ctx, listings);
  await registerMovingOut(app, ctx, listings);
  await registerTrust(app, ctx, listings);
  await registerSafety(app, ctx, guards, listings, deals);
  await registerNotifications(app, ctx, chat);
  await registerShare(app, ctx);
  // A deal message tells the other student, in the deal change's own transaction.
  ctx.domainEvents.inTransaction('deal.messagePosted', (trx, m) =>
    announceDealMessage(ctx, trx, m.notice, m.card, m.senderId, m.body),
  );
  if (config.nodeEnv !== 'production' && !config.smtpUrl) {
    await app.register(outboxRoutes(path.join(config.dataDir, 'outbox')));
    app.log.info(
      `No SMTP_URL: e-mails go to the development outbox at ${config.publicUrl}/dev/outbox (files in ${path.join(config.dataDir, 'outbox')}), readable only from this machine`,
    );
  }
  if (redis) app.log.info(`Redis channels and keys are prefixed with "${config.keyPrefix}"`);
  await registerWeb(
    app,
    options.webDist ?? process.env.WEB_DIST ?? DEFAULT_WEB_DIST,
    options.pageRenderBudgetMs,
  );
  // The next daily orphan sweep of every campus (deduplicated across processes by its key).
  if (options.orphanSweep?.schedule ?? config.nodeEnv !== 'test') await scheduleOrphanSweeps(ctx);
  // Jobs a stopped process was holding run now, not after their lease; then the worker starts.
  await ctx.jobs.reclaimDead();
  // Every module has registered its job handlers by now.
  ctx.jobs.start();
  return app;
}

/**
 * `cm:{id}:` from the one-row `deployment` table (migration 010): every process sharing this
 * database shares the id, another deployment has its own.
 */
async function deploymentPrefix(db: Db): Promise<string> {
  const row = await db.kysely.selectFrom('deployment').select('id').executeTakeFirstOrThrow();
  return `cm:${row.id}:`;
}
