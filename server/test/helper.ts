import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DEFAULT_LIMITS, type LimitName, type LimitPolicy } from '../src/http/rate-limit.js';
import { MailCapture, codeFrom } from './mail-capture.js';
import type { Student } from './students.js';
import { copySqliteTemplate, createPgCopy } from './database-templates.js';

export type TestDialect = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const dialects: TestDialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const redisUrl = process.env.TEST_REDIS_URL;

export type TestSearchEngine = 'memory' | 'postgres';

/**
 * The search engines a search suite runs against (SEARCH_ENGINE): the memory index on every
 * database, and search in PostgreSQL too when TEST_DATABASE_URL is set. Pass `env` to createTestApp.
 */
export const searchEngines: Array<{
  name: string;
  dialect: TestDialect;
  engine: TestSearchEngine;
  env: Record<string, string>;
}> = dialects.flatMap((dialect) => {
  const memory = { name: `${dialect}, memory engine`, dialect, engine: 'memory' as const, env: {} };
  if (dialect !== 'postgres') return [memory];
  const postgres = { name: 'postgres engine', dialect, engine: 'postgres' as const };
  return [memory, { ...postgres, env: { SEARCH_ENGINE: 'postgres' } }];
});

/** A clock tests can move forward. */
export class TestClock {
  constructor(public nowMs = Date.now()) {}
  now = () => this.nowMs;
  advance(ms: number) {
    this.nowMs += ms;
  }
}

export interface TestAppOptions extends BuildOptions {
  dialect?: TestDialect;
  /** Use Redis for rate limits and fan-out (requires TEST_REDIS_URL). */
  redis?: boolean;
  /** Share a database with another test app (cross-process tests). */
  databaseUrl?: string;
  /** Share Redis channels and counters with another test app (cross-process tests). */
  keyPrefix?: string;
  env?: Record<string, string>;
  /**
   * With SEARCH_ENGINE=postgres, search through a reader on the test database (SEARCH_DATABASE_URL,
   * as production should run it) unless env names one or this is false (search under row-level
   * security). Default true.
   */
  searchReader?: boolean;
  /** Reuse this data directory (and its SQLite file); it is left in place on close (restart tests). */
  dataDir?: string;
}

/** Every injected request comes from 127.0.0.1, so per-IP limits would trip across unrelated tests. */
const generousIpLimits: Partial<Record<LimitName, LimitPolicy>> = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS)
    // Tests also post many listings as one student; upload:account has its own test.
    .filter((name) => name.endsWith(':ip') || name === 'upload:account')
    .map((name) => [name, { points: 100_000, durationSeconds: 60 }]),
);

export interface TestApp {
  app: FastifyInstance;
  mail: MailCapture;
  clock: TestClock;
  dataDir: string;
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database per test app, so parallel test files never see each other's rows. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  return createPgCopy(base, 'cm_test');
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'cm-test-')));
  // A new SQLite database starts as a copy of the migrated template (a given dataDir keeps its own).
  if (ownDataDir && !options.databaseUrl && !options.env?.DATABASE_URL && options.dialect !== 'postgres') {
    await copySqliteTemplate(path.join(dataDir, 'market.db'));
  }
  const mail = new MailCapture();
  const smtpUrl = await mail.start();
  const clock = new TestClock();
  let databaseUrl = options.databaseUrl;
  let dropDb: (() => Promise<void>) | undefined;
  if (!databaseUrl && options.dialect === 'postgres') {
    const created = await createPgDatabase();
    databaseUrl = created.url;
    dropDb = created.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
    ALLOWED_EMAIL_DOMAINS: 'msu.edu',
    LOG_LEVEL: 'silent',
    // Tests post many listings and open many rooms as one student; safety's tests set the real caps.
    DAILY_LISTINGS_MAX: '1000000',
    DAILY_CONVERSATIONS_MAX: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(options.redis && redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...(options.env?.SEARCH_ENGINE === 'postgres' && databaseUrl && options.searchReader !== false
      ? { SEARCH_DATABASE_URL: databaseUrl }
      : {}),
    ...options.env,
  });
  // Without an explicit prefix the app derives one from its (fresh) database's deployment id.
  if (options.keyPrefix) config.keyPrefix = options.keyPrefix;
  const app = await buildApp(config, {
    clock: clock.now,
    logger: false,
    webDist: '/nonexistent',
    ...options,
    rateLimits: { ...generousIpLimits, ...options.rateLimits },
  });
  return {
    app,
    mail,
    clock,
    dataDir,
    databaseUrl,
    async close() {
      await app.close();
      await mail.stop();
      await dropDb?.();
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** app.inject with the student's bearer token. */
export function asStudent(
  t: TestApp,
  student: Pick<Student, 'token'>,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${student.token}` },
  });
}

export { codeFrom };
export { createStudent, signUpStudent, type Student } from './students.js';
export { TEST_CAMPUS_DOMAINS, TEST_CAMPUSES, TWO_CAMPUSES, campusOfUser } from './campuses.js';
