import {
  SAFETY_MESSAGES,
  dailyListingsMessage,
  roomIdFor,
  prohibitedMessage,
  type BlockedUser,
  type DataExport,
  type Listing,
} from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUSES,
  TEST_CAMPUS_DOMAINS,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { multipart, postListing, validFields } from '../listings/testing.js';
import { call } from './testing.js';

/**
 * Safety's student-facing entry points with two campuses (features.md §E): reports and blocks
 * reach only the student's own campus (another campus's listing, student or message answers
 * exactly like an unknown id), prohibited terms are the poster's campus's rules, and the daily
 * cap counts per student. Moderation across campuses: moderation-campuses.test.ts.
 */
describe.each(dialects)('safety across campuses (%s)', (dialect) => {
  let t: TestApp;
  let msu: Student;
  let msuPeer: Student;
  let uw: Student;
  let uwPeer: Student;
  let msuListing: Listing;
  let uwListing: Listing;

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      env: { CAMPUSES: JSON.stringify(TEST_CAMPUSES), DAILY_LISTINGS_MAX: '2' },
    });
    msu = await createStudent(t, { firstName: 'Sparty' });
    msuPeer = await createStudent(t, { firstName: 'Mia' });
    uw = await createStudent(t, { firstName: 'Husky', domain: TEST_CAMPUS_DOMAINS.uw });
    uwPeer = await createStudent(t, { firstName: 'Wren', domain: TEST_CAMPUS_DOMAINS.uw });
    msuListing = await postListing(t, msuPeer, validFields({ name: 'MSU desk' }));
    uwListing = await postListing(t, uwPeer, validFields({ name: 'UW desk' }));
  });
  afterAll(() => t.close());

  const report = (s: Student | null, targetType: string, targetId: number) =>
    call(t, s, 'POST', '/reports', { targetType, targetId, reason: 'SCAM' });

  /** A conversation of two students of one campus, with one message from `from`; its id. */
  async function message(to: Student, from: Student): Promise<number> {
    const db = t.app.ctx.db.kysely;
    const now = t.clock.now();
    const room = roomIdFor(to.id, from.id);
    await db
      .insertInto('chat_rooms')
      .values({
        id: room,
        low_user_id: Math.min(to.id, from.id),
        high_user_id: Math.max(to.id, from.id),
        buyer_id: to.id,
        seller_id: from.id,
        listing_id: null,
        message_count: 1,
        created_at: now,
        last_activity_at: now,
        campus_id: from.campusId,
      })
      .execute();
    const row = await db
      .insertInto('chat_messages')
      .values({
        room_id: room,
        sender_id: from.id,
        content: 'Pay by Zelle first',
        url: null,
        listing_id: null,
        sent_at: now,
        campus_id: from.campusId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Status and body, to compare a refusal with the unknown-id answer exactly. */
  const seen = (res: { statusCode: number; json(): unknown }) => ({
    status: res.statusCode,
    body: res.json(),
  });

  describe('POST /reports', () => {
    it('another campus’s listing answers exactly like an unknown one; the own campus’s is reportable', async () => {
      const unknown = seen(await report(msu, 'LISTING', 999_999));
      expect(unknown).toEqual({
        status: 404,
        body: expect.objectContaining({ message: SAFETY_MESSAGES.reportNotFound }),
      });
      expect(seen(await report(msu, 'LISTING', uwListing.id))).toEqual(unknown);
      expect((await report(null, 'LISTING', msuListing.id)).statusCode).toBe(401);
      expect((await report(msu, 'LISTING', msuListing.id)).statusCode).toBe(201);
      expect((await report(uw, 'LISTING', uwListing.id)).statusCode).toBe(201);
      // Nothing was filed about the other campus's listing.
      const filed = await t.app.ctx.db.kysely
        .selectFrom('reports')
        .select(['reporter_id', 'target_id'])
        .where('target_type', '=', 'LISTING')
        .execute();
      expect(filed).not.toContainEqual({ reporter_id: msu.id, target_id: uwListing.id });
    });

    it('another campus’s student answers exactly like an unknown one', async () => {
      const unknown = seen(await report(msu, 'USER', 999_999));
      expect(unknown.status).toBe(404);
      expect(seen(await report(msu, 'USER', uwPeer.id))).toEqual(unknown);
      expect((await report(null, 'USER', msuPeer.id)).statusCode).toBe(401);
      expect((await report(msu, 'USER', msuPeer.id)).statusCode).toBe(201);
    });

    it('a message of another campus’s conversation answers exactly like an unknown one', async () => {
      const uwMessage = await message(uw, uwPeer);
      const msuMessage = await message(msu, msuPeer);
      const unknown = seen(await report(msu, 'MESSAGE', 999_999));
      expect(seen(await report(msu, 'MESSAGE', uwMessage))).toEqual(unknown);
      expect((await report(null, 'MESSAGE', msuMessage)).statusCode).toBe(401);
      expect((await report(msu, 'MESSAGE', msuMessage)).statusCode).toBe(201);
      expect((await report(uw, 'MESSAGE', uwMessage)).statusCode).toBe(201);
    });
  });

  describe('blocks', () => {
    it('blocking another campus’s student answers exactly like an unknown one and lists nothing', async () => {
      const unknown = seen(await call(t, msu, 'PUT', '/users/999999/block'));
      expect(unknown).toEqual({
        status: 404,
        body: expect.objectContaining({ message: SAFETY_MESSAGES.userNotFound }),
      });
      expect(seen(await call(t, msu, 'PUT', `/users/${uw.id}/block`))).toEqual(unknown);
      expect((await call(t, null, 'PUT', `/users/${msuPeer.id}/block`)).statusCode).toBe(401);
      expect((await call(t, msu, 'PUT', `/users/${msuPeer.id}/block`)).statusCode).toBe(200);
      const list = (await call(t, msu, 'GET', '/users/blocked')).json() as BlockedUser[];
      expect(list.map((b) => b.id)).toEqual([msuPeer.id]);
      // Unblocking is idempotent: another campus's student like someone never blocked.
      expect(seen(await call(t, msu, 'DELETE', `/users/${uw.id}/block`))).toEqual({
        status: 200,
        body: { id: uw.id, blocked: false },
      });
      expect((await call(t, msu, 'DELETE', `/users/${msuPeer.id}/block`)).statusCode).toBe(200);
      expect((await call(t, msu, 'GET', '/users/blocked')).json()).toEqual([]);
    });
  });

  describe('prohibited terms and daily caps', () => {
    const post = (s: Student, name: string) =>
      asStudent(t, s, { method: 'POST', url: '/listing', ...multipart(validFields({ name })) });

    it('a campus’s own rule refuses its students’ listings only; the defaults hold everywhere', async () => {
      const poster = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      const refused = await post(poster, 'Spare dorm key for Hall B');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(prohibitedMessage('dorm keys', 'dorm key'));
      const vape = await post(poster, 'Vape pen');
      expect(vape.statusCode).toBe(400);
      expect(vape.json().message).toBe(prohibitedMessage('drugs and vapes', 'vape'));
      const elsewhere = await createStudent(t);
      expect((await post(elsewhere, 'Spare dorm key for Hall B')).statusCode).toBe(201);
      expect((await post(elsewhere, 'Vape pen')).statusCode).toBe(400);
    });

    it('the daily cap counts each student, whatever the campus', async () => {
      const a = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      const b = await createStudent(t);
      for (const s of [a, b]) {
        expect((await post(s, 'Lamp one')).statusCode).toBe(201);
        expect((await post(s, 'Lamp two')).statusCode).toBe(201);
      }
      const over = await post(a, 'Lamp three');
      expect(over.statusCode).toBe(429);
      expect(over.json().message).toBe(dailyListingsMessage(2));
      expect((await post(b, 'Lamp three')).statusCode).toBe(429);
      // Another student of the same campus still has all of theirs.
      const c = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      expect((await post(c, 'Lamp one')).statusCode).toBe(201);
    });
  });

  describe('GET /users/me/export', () => {
    it('holds only rows of the student’s own campus', async () => {
      const res = await call(t, uw, 'GET', '/users/me/export');
      expect(res.statusCode).toBe(200);
      const data = res.json() as DataExport;
      const rows = Object.values(data.tables).flat();
      expect(rows.length).toBeGreaterThan(0);
      const campuses = new Set(rows.map((r) => Number(r.campus_id)));
      expect([...campuses]).toEqual([uw.campusId]);
      expect(data.tables.reports?.map((r) => r.target_id)).toEqual(expect.arrayContaining([uwListing.id]));
      expect((await call(t, null, 'GET', '/users/me/export')).statusCode).toBe(401);
    });
  });
});
