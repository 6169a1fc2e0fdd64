/** Test helpers for the chat module: real app on a real port, listings, paired processes. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { TestClock, createPgDatabase, type TestApp } from '../../test/helper.js';
import { MailCapture } from '../../test/mail-capture.js';

/** Listens on a random loopback port; returns the STOMP URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/ws`;
}

/** Inserts a listing straight into the database (the listings module is not under test here). */
export async function createListing(
  t: Pick<TestApp, 'app'>,
  sellerId: number,
  name = 'Desk lamp',
): Promise<number> {
  const now = Date.now();
  const row = await t.app.ctx.db.kysely
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      name,
      description: 'Works fine',
      category: 'LIFESTYLE',
      price_cents: 1500,
      image_key: null,
      thumb_key: null,
      is_sold: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function parseMessage(body: string): ChatMessage {
  return JSON.parse(body) as ChatMessage;
}

/**
 * Two app processes (two Fastify instances, each with its own STOMP server) sharing one fresh
 * PostgreSQL database, one Redis and one key prefix, as two processes behind a load balancer would.
 */
export async function pairedApps(
  redisUrl: string,
): Promise<{ apps: [TestApp, TestApp]; close(): Promise<void> }> {
  const database = await createPgDatabase();
  const keyPrefix = `cmtest:${randomBytes(4).toString('hex')}:`;
  const made: TestApp[] = [];
  for (let i = 0; i < 2; i++) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-chat-'));
    const mail = new MailCapture();
    const smtpUrl = await mail.start();
    const clock = new TestClock();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SMTP_URL: smtpUrl,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      ALLOWED_EMAIL_DOMAINS: 'msu.edu',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
    });
    config.keyPrefix = keyPrefix;
    const app = await buildApp(config, { clock: clock.now, logger: false, webDist: '/nonexistent' });
    made.push({
      app,
      mail,
      clock,
      dataDir,
      databaseUrl: database.url,
      async close() {
        await app.close();
        await mail.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    });
  }
  const apps = made as [TestApp, TestApp];
  return {
    apps,
    async close() {
      for (const t of apps) await t.close();
      await database.drop();
    },
  };
}

/** A multipart/form-data body with one file field, for app.inject. */
export function multipartFile(field: string, filename: string, bytes: Buffer, type = 'image/jpeg') {
  const boundary = `----campus${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
