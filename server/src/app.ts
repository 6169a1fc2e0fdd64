import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { LIMITS, MESSAGES } from '@campus/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AccountsService, accountsRoutes } from './accounts/index.js';
import { registerChat } from './chat/index.js';
import type { Config } from './config.js';
import { AppEvents, type AppContext } from './context.js';
import { openDb } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { registerErrorHandler } from './http/errors.js';
import { RateLimits, type LimitName, type LimitPolicy } from './http/rate-limit.js';
import { registerResponseHeaders, requestIdGenerator } from './http/security-headers.js';
import { TokenService } from './http/tokens.js';
import { registerListings } from './listings/index.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { outboxRoutes } from './mail/outbox-routes.js';

export interface BuildOptions {
  /** Milliseconds since the epoch; tests inject a movable clock. */
  clock?: () => number;
  rateLimits?: Partial<Record<LimitName, LimitPolicy>>;
  mailer?: Mailer;
  logger?: boolean;
  /** Where the built web app lives; defaults to web/dist beside the server package. */
  webDist?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

/** Builds the whole app: database (migrated), services, routes, static web. Does not listen. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Never a password, code or token in a log line (issue #2).
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["x-auth-token"]'],
          },
    genReqId: requestIdGenerator(),
    trustProxy: config.trustProxy,
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });

  const db = openDb(config);
  await migrateToLatest(db);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  const clock = options.clock ?? Date.now;
  const ctx: AppContext = {
    config,
    db,
    clock,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        logger: app.log,
      }),
    tokens: new TokenService(config.jwtSecret, clock),
    limits: new RateLimits({ redis, keyPrefix: config.keyPrefix, overrides: options.rateLimits }),
    events: new AppEvents(),
    redis,
    logger: app.log,
    authenticate: async () => null,
  };
  const accounts = new AccountsService(ctx);
  ctx.authenticate = (token) => accounts.authenticate(token);
  app.decorate('ctx', ctx);
  app.decorateRequest('principal', null);

  // Security headers (the policy of @fastify/helmet, precomputed) and x-request-id on every answer.
  registerResponseHeaders(app, config.nodeEnv === 'production');
  app.addHook('onClose', async () => {
    await ctx.mailer.close();
    await db.close();
    redis?.disconnect();
  });

  registerErrorHandler(app);
  await app.register(multipart, {
    limits: { fileSize: LIMITS.imageMaxBytes, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await db.ping();
      return { status: 'ready', database: db.dialect };
    } catch {
      return reply.code(503).send({ message: 'Database unreachable', code: 'NOT_READY' });
    }
  });

  await app.register(accountsRoutes(ctx, accounts));
  await registerListings(app, ctx);
  await registerChat(app, ctx);
  if (config.nodeEnv !== 'production' && !config.smtpUrl) {
    await app.register(outboxRoutes(path.join(config.dataDir, 'outbox')));
  }
  await registerWeb(app, options.webDist ?? process.env.WEB_DIST ?? DEFAULT_WEB_DIST);
  return app;
}

/** Serves the built SPA; unknown GETs that want HTML get index.html, API misses get JSON 404. */
async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The web build writes .br/.gz copies; browsers that accept them get the smaller file.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (hasWeb && wantsHtml) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ message: MESSAGES.notFound, code: 'NOT_FOUND' });
  });
}
