/**
 * Two deployments on one Redis: each prefixes its channels and keys with the
 * deployment id created once in its database, so students with the same ids on two campuses never
 * receive each other's messages or revocations; processes sharing a database share the prefix.
 */
import { STOMP_PATHS } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createPgDatabase,
  createStudent,
  createTestApp,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from './stomp/testing.js';
import { createListing, listen, parseMessage } from './testing.js';

describe('deployment prefix', () => {
  it('is created once per database and shared by every process on it; REDIS_PREFIX overrides it', async () => {
    const first = await createTestApp();
    const again = await createTestApp({ dataDir: first.dataDir });
    const other = await createTestApp();
    const custom = await createTestApp({ env: { REDIS_PREFIX: 'campus-b:' } });
    try {
      expect(first.app.ctx.config.keyPrefix).toMatch(/^cm:[0-9a-f]{16}:$/);
      expect(again.app.ctx.config.keyPrefix).toBe(first.app.ctx.config.keyPrefix);
      expect(other.app.ctx.config.keyPrefix).not.toBe(first.app.ctx.config.keyPrefix);
      expect(custom.app.ctx.config.keyPrefix).toBe('campus-b:');
    } finally {
      for (const t of [again, first, other, custom]) await t.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'is the same for two processes on one PostgreSQL database',
    async () => {
      const db = await createPgDatabase();
      const a = await createTestApp({ databaseUrl: db.url });
      const b = await createTestApp({ databaseUrl: db.url });
      try {
        expect(b.app.ctx.config.keyPrefix).toBe(a.app.ctx.config.keyPrefix);
      } finally {
        await a.close();
        await b.close();
        await db.drop();
      }
    },
  );
});

describe.skipIf(!redisUrl)('two deployments sharing one Redis', () => {
  // Each deployment has its own database, so its students get the same ids as the other's.
  let campusA: TestApp;
  let campusB: TestApp;
  const students: Record<'a1' | 'a2' | 'b1' | 'b2', Student> = {} as never;
  const open: Client[] = [];
  let listingA: number;
  let listingB: number;

  beforeAll(async () => {
    campusA = await createTestApp({ redis: true });
    campusB = await createTestApp({ redis: true });
    students.a1 = await createStudent(campusA);
    students.a2 = await createStudent(campusA);
    students.b1 = await createStudent(campusB);
    students.b2 = await createStudent(campusB);
    listingA = await createListing(campusA, students.a2.id);
    listingB = await createListing(campusB, students.b2.id);
  });
  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await campusA?.close();
    await campusB?.close();
  });

  const connect = async (t: TestApp, s: Student) => {
    const c = await connectOrThrow(await listen(t.app), { Authorization: `Bearer ${s.token}` });
    open.push(c);
    return c;
  };

  it("never delivers one campus's messages or revocations to the other's students with the same ids", async () => {
    expect(students.a2.id).toBe(students.b2.id);
    expect(campusA.app.chat.broker.kind).toBe('redis');
    expect(campusA.app.ctx.config.keyPrefix).not.toBe(campusB.app.ctx.config.keyPrefix);

    const a2 = await connect(campusA, students.a2);
    const b2 = await connect(campusB, students.b2);
    const inboxA = collect(a2, STOMP_PATHS.inbox, { receipt: 'sa' });
    const inboxB = collect(b2, STOMP_PATHS.inbox, { receipt: 'sb' });
    await Promise.all([receiptFor(a2, 'sa'), receiptFor(b2, 'sb')]);

    const a1 = await connect(campusA, students.a1);
    a1.publish({
      destination: `/app/chat.send/${students.a1.id}/${students.a2.id}`,
      body: JSON.stringify({ content: 'From campus A', listingId: listingA }),
    });
    expect(parseMessage((await inboxA.next()).body).content).toBe('From campus A');

    // A password change on campus A revokes the sessions of A's student 2 only.
    const change = await asStudent(campusA, students.a2, {
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: students.a2.password, newPassword: 'another-long-passphrase-7' },
    });
    expect(change.statusCode).toBe(200);
    await expect.poll(() => a2.connected).toBe(false);

    const b1 = await connect(campusB, students.b1);
    b1.publish({
      destination: `/app/chat.send/${students.b1.id}/${students.b2.id}`,
      body: JSON.stringify({ content: 'From campus B', listingId: listingB }),
    });
    // Redis delivers in publish order: had A's message leaked, it would arrive first.
    expect(parseMessage((await inboxB.next()).body).content).toBe('From campus B');
    expect(inboxB.messages.map((m) => parseMessage(m.body).content)).toEqual(['From campus B']);
    expect(b2.connected).toBe(true);
  });
});
