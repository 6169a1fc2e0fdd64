import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FRESHNESS_LIMITS,
  SAFETY_LIMITS,
  meetupSpotsSchema,
  type MeetupSpot,
  type ProhibitedRule,
} from '@campus/contract';
import { z } from 'zod';
import { legacyCampus, parseCampuses, slugFor, type CampusSettings } from './campuses/settings.js';
import { parseBucketConfig, type BucketConfig } from './media/bucket-config.js';
import { ssoAddressProblems } from './sso/addresses.js';

const optionalUrl = (protocols: string[], hint: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), hint);

/** Comma-separated e-mail addresses, lower case (moderators, operators). */
const addressList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be one of development, production, test',
    })
    .default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(
    ['postgres://', 'postgresql://'],
    'must be a postgres:// URL (leave it unset for the embedded SQLite file)',
  ),
  REDIS_URL: optionalUrl(['redis://', 'rediss://'], 'must be a redis:// URL'),
  REDIS_PREFIX: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .regex(/^[\w:.-]*$/, 'may hold only letters, digits and _ : . -')
    .optional(),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://'], 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().min(3).default('Campus Market <no-reply@campus-market.local>'),
  PUBLIC_URL: z.url({ error: 'must be a full URL like https://market.example.edu' }).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ALLOWED_EMAIL_DOMAINS: z
    .string()
    .default('msu.edu')
    .transform((v) =>
      v
        .split(',')
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    )
    .refine((list) => list.length > 0, 'must list at least one domain, e.g. msu.edu'),
  CAMPUS_NAME: z.string().trim().min(1).default('MSU'),
  /** The default campus's slug when CAMPUSES is unset (features.md §E); from CAMPUS_NAME otherwise. */
  CAMPUS_SLUG: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and dashes, e.g. msu')
    .optional(),
  /** Every campus of this deployment: a JSON array or the path of a JSON file (features.md §E). */
  CAMPUSES: z.string().trim().optional(),
  ABOUT_TEXT: z.string().trim().optional(),
  /** The SAML service provider's key and certificate (PEM or file path); generated when unset. */
  SAML_SP_KEY: z.string().optional(),
  SAML_SP_CERT: z.string().optional(),
  /** A JSON array of {id, name, description}, or the path of a file holding one (features.md §A). */
  MEETUP_SPOTS: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // Notifications (features.md §D)
  CAMPUS_TIMEZONE: z
    .string()
    .default('America/Detroit')
    .refine(isTimeZone, 'must be an IANA time zone such as America/Detroit'),
  PUSH_ALLOW_HTTP_ENDPOINTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  VAPID_PUBLIC_KEY: z.string().trim().optional(),
  VAPID_PRIVATE_KEY: z.string().trim().optional(),
  VAPID_SUBJECT: z.string().trim().optional(),
  // Safety (features.md §C)
  MODERATOR_EMAILS: addressList,
  /** Operators: see and act on every campus's moderation queue and audit log. */
  OPERATOR_EMAILS: addressList,
  PROHIBITED_TERMS: z
    .string()
    .optional()
    .transform((v, c) => {
      if (v === undefined || v.trim() === '') return undefined;
      const rules = parseProhibitedTerms(v);
      if (!rules) {
        c.addIssue({ code: 'custom', message: 'must look like "rule name: term, term; other rule: term"' });
        return z.NEVER;
      }
      return rules;
    }),
  DAILY_LISTINGS_MAX: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(SAFETY_LIMITS.dailyListings),
  DAILY_CONVERSATIONS_MAX: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(SAFETY_LIMITS.dailyConversations),
  // Freshness (features.md §H): how long a listing stays listed after posting or renewal.
  LISTING_DAYS: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(
      FRESHNESS_LIMITS.expiringNoticeDays + 1,
      `must be more than ${FRESHNESS_LIMITS.expiringNoticeDays} days`,
    )
    .max(365, 'must be at most 365 days')
    .default(FRESHNESS_LIMITS.listingDaysDefault),
  UPLOADS_PER_STUDENT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(1),
  SEARCH_THREADS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(16, 'must be at most 16')
    .optional(),
  SEARCH_ENGINE: z.enum(['memory', 'postgres'], { error: 'must be memory or postgres' }).default('memory'),
  SEARCH_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  STUDENT_STATUS_MONTHS: z.coerce
    .number({ error: 'must be a whole number of months' })
    .int('must be a whole number of months')
    .min(1, 'must be at least 1')
    .max(120, 'must be at most 120')
    .default(SAFETY_LIMITS.defaultStudentStatusMonths),
});

/** `Rule name: term, term; Other rule: term` -> rules; null when malformed. */
export function parseProhibitedTerms(raw: string): ProhibitedRule[] | null {
  const rules: ProhibitedRule[] = [];
  for (const group of raw.split(';')) {
    if (group.trim() === '') continue;
    const colon = group.indexOf(':');
    if (colon < 1) return null;
    const rule = group.slice(0, colon).trim();
    const terms = group
      .slice(colon + 1)
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (rule === '' || terms.length === 0) return null;
    rules.push({ rule, terms });
  }
  return rules.length > 0 ? rules : null;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  /**
   * Every campus configured (CAMPUSES, or the one campus of the CAMPUS_* settings), exactly one of
   * them the default. The running app reads campuses from `ctx.campuses`, which also knows their
   * ids and the closed ones (campuses/registry.ts).
   */
  campuses: CampusSettings[];
  /** SAML_SP_KEY / SAML_SP_CERT (university sign-in over SAML); unset, generated into DATA_DIR. */
  samlSpKey: string | undefined;
  samlSpCert: string | undefined;
  /** Addresses that moderate every campus (lower case). */
  operatorEmails: string[];
  logLevel: string;
  trustProxy: boolean;
  /** Accept http: push endpoints (local tests only). */
  pushAllowHttpEndpoints: boolean;
  /** VAPID keys from the environment; generated into DATA_DIR when unset. */
  vapid: { publicKey: string; privateKey: string } | undefined;
  /** The VAPID contact (mailto: or https:). */
  vapidSubject: string | undefined;
  /**
   * Prefix of every Redis channel and key (chat fan-out, rate-limit counters). REDIS_PREFIX when
   * set; otherwise '' here and `cm:{deployment id}:` once the app has read its database (app.ts),
   * so two deployments sharing one Redis never exchange messages or revocations.
   */
  keyPrefix: string;
  studentStatusMonths: number;
  /** New listings / new conversations per student in any 24 hours (features.md §C: 20). */
  dailyListingsMax: number;
  dailyConversationsMax: number;
  /** Photo uploads one student may have in progress at once, per process (http/uploads.ts). */
  uploadsPerStudent: number;
  /** LISTING_DAYS: a listing stays listed this many days after posting or renewal. */
  listingDays: number;
  /**
   * Worker threads the search index is split across (listings/search/sharded-index.ts): SEARCH_THREADS,
   * else one per core up to 4 (a search scores on every core at once; more threads than cores only
   * add messages).
   */
  searchThreads: number;
  /** S3_BUCKET and friends: photos in object storage (media/bucket-config.ts); undefined = DATA_DIR/uploads. */
  bucket: BucketConfig | undefined;
  /**
   * SEARCH_ENGINE: `memory` (the in-process index, listings/search/search-index.ts) or `postgres`
   * (search in the database, listings/search/postgres-search.ts; needs DATABASE_URL).
   */
  searchEngine: 'memory' | 'postgres';
  /**
   * SEARCH_DATABASE_URL: with SEARCH_ENGINE=postgres, the read-only role searches connect as, one
   * row-level security does not hold (db/search-reader.ts says why); undefined = DATABASE_URL's.
   */
  searchDatabaseUrl: string | undefined;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and checks the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SMTP_URL) {
    // Without a mail server, codes would go nowhere and nobody could sign up or reset.
    throw new ConfigError([
      'SMTP_URL: must be set when NODE_ENV=production (codes are e-mailed; the development outbox is off in production)',
    ]);
  }
  const bucket = parseBucketConfig(env);
  if (bucket.problems.length > 0) throw new ConfigError(bucket.problems);
  if (e.SEARCH_ENGINE === 'postgres' && !e.DATABASE_URL) {
    throw new ConfigError([
      'SEARCH_ENGINE: postgres searches in PostgreSQL, so DATABASE_URL must be a postgres:// URL (or leave SEARCH_ENGINE unset for the in-memory index)',
    ]);
  }
  if (e.SEARCH_DATABASE_URL && e.SEARCH_ENGINE !== 'postgres') {
    throw new ConfigError([
      'SEARCH_DATABASE_URL: only search in PostgreSQL reads through it; set SEARCH_ENGINE=postgres or remove it',
    ]);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  let campuses: CampusSettings[];
  if (e.CAMPUSES) {
    const parsedCampuses = parseCampuses(e.CAMPUSES, isTimeZone);
    if (parsedCampuses.problems.length > 0) throw new ConfigError(parsedCampuses.problems);
    campuses = parsedCampuses.campuses;
  } else {
    campuses = [
      legacyCampus({
        slug: e.CAMPUS_SLUG ?? slugFor(e.CAMPUS_NAME),
        name: e.CAMPUS_NAME,
        emailDomains: e.ALLOWED_EMAIL_DOMAINS,
        timeZone: e.CAMPUS_TIMEZONE,
        about: e.ABOUT_TEXT,
        meetupSpots: e.MEETUP_SPOTS ? meetupSpots(e.MEETUP_SPOTS) : undefined,
        prohibitedRules: e.PROHIBITED_TERMS,
        moderators: e.MODERATOR_EMAILS,
      }),
    ];
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const ssoProblems = ssoAddressProblems(campuses, publicUrl, e.NODE_ENV === 'production');
  if (ssoProblems.length > 0) throw new ConfigError(ssoProblems);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    campuses,
    samlSpKey: e.SAML_SP_KEY,
    samlSpCert: e.SAML_SP_CERT,
    operatorEmails: e.OPERATOR_EMAILS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    pushAllowHttpEndpoints: e.PUSH_ALLOW_HTTP_ENDPOINTS,
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT,
    keyPrefix: e.REDIS_PREFIX ?? '',
    studentStatusMonths: e.STUDENT_STATUS_MONTHS,
    dailyListingsMax: e.DAILY_LISTINGS_MAX,
    dailyConversationsMax: e.DAILY_CONVERSATIONS_MAX,
    uploadsPerStudent: e.UPLOADS_PER_STUDENT,
    listingDays: e.LISTING_DAYS,
    searchThreads: e.SEARCH_THREADS ?? Math.min(4, os.availableParallelism()),
    bucket: bucket.config,
    searchEngine: e.SEARCH_ENGINE,
    searchDatabaseUrl: e.SEARCH_DATABASE_URL,
  };
}

/**
 * MEETUP_SPOTS: a JSON value (starts with `[`) or the path of a JSON file; unset → three neutral
 * defaults (campuses/settings.ts). A bad value stops the server with the reason rather than silently using the defaults.
 */
function meetupSpots(raw: string): MeetupSpot[] {
  let text = raw;
  if (!raw.startsWith('[')) {
    if (!existsSync(raw))
      throw new ConfigError([`MEETUP_SPOTS: no such file ${raw} (give a JSON array or a file path)`]);
    text = readFileSync(raw, 'utf8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(['MEETUP_SPOTS: must be JSON: [{"id", "name", "description"}]']);
  }
  const parsed = meetupSpotsSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `MEETUP_SPOTS ${i.path.join('.')}: ${i.message}`.replace(' :', ':')),
    );
  }
  return parsed.data;
}

/** Embedded default: a secret generated once into DATA_DIR and reused, so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
