import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = (protocols: string[], hint: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), hint);

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
  ABOUT_TEXT: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

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
  allowedEmailDomains: string[];
  campusName: string;
  aboutText: string;
  logLevel: string;
  trustProxy: boolean;
  /** Prefix for shared keys (Redis channels, rate-limit counters) so test apps never collide. */
  keyPrefix: string;
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
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS,
    campusName: e.CAMPUS_NAME,
    aboutText:
      e.ABOUT_TEXT ??
      `Campus Market is built by students for ${e.CAMPUS_NAME} students: a fee-free place to pass on what you no longer need to someone a short walk away.`,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    keyPrefix: 'cm:',
  };
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
