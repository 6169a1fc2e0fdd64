/** Test helpers for the chat module: real app on a real port, listings, paired processes. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { inCampus } from '../db/campus-scope.js';
import {
  asStudent,
  campusOfUser,
  createPgDatabase,
  createTestApp,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart } from '../listings/testing.js';

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
      campus_id: await campusOfUser(t, sellerId),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * `ChatService.send` called directly, as the sender's STOMP session calls it: as work of the
 * sender's campus (the session's scope).
 */
export async function sendAs(
  t: Pick<TestApp, 'app'>,
  senderId: number,
  buyerId: number,
  sellerId: number,
  payload: unknown,
): Promise<ChatMessage> {
  const campusId = await campusOfUser(t, senderId);
  return inCampus(campusId, () => t.app.chat.service.send(senderId, buyerId, sellerId, payload));
}

export function parseMessage(body: string): ChatMessage {
  return JSON.parse(body) as ChatMessage;
}

/**
 * Two app processes (two Fastify instances, each with its own STOMP server) sharing one fresh
 * PostgreSQL database, one Redis and one key prefix, as two processes behind a load balancer would.
 */
export async function pairedApps(
  /** One Redis for both, or one address each (e.g. a TcpProxy per process in front of one Redis). */
  redisUrl: string | [string, string],
  env: Record<string, string> = {},
): Promise<{ apps: [TestApp, TestApp]; close(): Promise<void> }> {
  const database = await createPgDatabase();
  const [urlA, urlB] = typeof redisUrl === 'string' ? [redisUrl, redisUrl] : redisUrl;
  const shared = { databaseUrl: database.url, keyPrefix: `cmtest:${randomBytes(4).toString('hex')}:` };
  const apps: [TestApp, TestApp] = [
    await createTestApp({ ...shared, env: { REDIS_URL: urlA, ...env } }),
    await createTestApp({ ...shared, env: { REDIS_URL: urlB, ...env } }),
  ];
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
  return multipart({}, [{ field, filename, contentType: type, data: bytes }]);
}

/** GET /api/chats/{room} as `student`: the status, the messages (none unless 200) and the Link header. */
export async function chatHistory(
  t: TestApp,
  student: Student,
  room: string,
  query = '',
): Promise<{ status: number; messages: ChatMessage[]; link: string | undefined }> {
  const res = await asStudent(t, student, { method: 'GET', url: `/api/chats/${room}${query}` });
  return {
    status: res.statusCode,
    messages: res.statusCode === 200 ? (res.json() as ChatMessage[]) : [],
    link: res.headers.link as string | undefined,
  };
}

/** POST /api/chats/upload of a small JPEG as `student`: the photo's URL. */
export async function uploadChatPhoto(t: TestApp, student: Student): Promise<string> {
  const res = await asStudent(t, student, {
    method: 'POST',
    url: '/api/chats/upload',
    ...multipartFile('image', 'p.jpg', await makeJpeg(64, 48)),
  });
  if (res.statusCode !== 200) throw new Error(`chat upload answered ${res.statusCode}: ${res.body}`);
  return res.body;
}
