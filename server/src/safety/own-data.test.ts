import {
  ERROR_CODES,
  SAFETY_MESSAGES,
  roomIdFor,
  type ChatMessage,
  type ChatRoomSummary,
  type DataExport,
} from '@campus/contract';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeFrom,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, postListing, validFields } from '../listings/testing.js';
import { USER_COLUMN, userTables } from './own-data.js';
import { call } from './testing.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('student status, export and account deletion (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { STUDENT_STATUS_MONTHS: '12' } });
  });
  afterAll(() => t.close());

  const login = (s: Student) =>
    t.app.inject({ method: 'POST', url: '/public/login', payload: { email: s.email, password: s.password } });

  it('a lapsed student status answers 403 UNVERIFIED with a fresh code; verifying renews it', async () => {
    const s = await createStudent(t);
    t.clock.advance(364 * DAY);
    expect((await login(s)).statusCode).toBe(200);
    t.clock.advance(2 * DAY);
    const before = t.mail.count(s.email);
    const lapsed = await login(s);
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json()).toEqual({ message: SAFETY_MESSAGES.statusLapsed, code: ERROR_CODES.unverified });
    // The old session can no longer trade either.
    expect((await call(t, s, 'GET', '/listings')).statusCode).toBe(401);
    await t.app.ctx.jobs.runDue({ types: ['mail.send'] });
    const code = codeFrom(await t.mail.waitFor(s.email, before));
    // A wrong password still says nothing about the status.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: s.email, password: 'wrong-password-123' },
    });
    expect(wrong.statusCode).toBe(401);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/public/verify',
      payload: { email: s.email, token: code },
    });
    expect(verify.statusCode).toBe(200);
    const renewed = await login(s);
    expect(renewed.statusCode).toBe(200);
    // Renewed for another 12 months from now, with the same password.
    t.clock.advance(300 * DAY);
    expect((await login(s)).statusCode).toBe(200);
  });

  it('the export covers every table with a user column, with the student’s rows and no secrets', async () => {
    const me = await createStudent(t, { firstName: 'Exporter' });
    const peer = await createStudent(t, { firstName: 'Peer' });
    const mine = await postListing(t, me, validFields({ name: 'My lamp' }));
    const theirs = await postListing(t, peer, validFields({ name: 'Their desk' }));
    await call(t, me, 'PUT', `/listings/${theirs.id}/save`);
    await call(t, me, 'POST', '/searches', { query: 'desk' });
    await call(t, me, 'POST', '/wanted', { title: 'A bike', category: 'LIFESTYLE' });
    await call(t, me, 'POST', '/reports', { targetType: 'LISTING', targetId: theirs.id, reason: 'SPAM' });
    await call(t, peer, 'POST', '/reports', { targetType: 'LISTING', targetId: mine.id, reason: 'SCAM' });
    await call(t, me, 'PUT', `/users/${peer.id}/block`);
    await call(t, peer, 'PUT', `/users/${me.id}/block`);
    const now = t.clock.now();
    const room = roomIdFor(me.id, peer.id);
    const db = t.app.ctx.db.kysely;
    await db
      .insertInto('chat_rooms')
      .values({
        id: room,
        low_user_id: Math.min(me.id, peer.id),
        high_user_id: Math.max(me.id, peer.id),
        buyer_id: me.id,
        seller_id: peer.id,
        listing_id: theirs.id,
        message_count: 2,
        created_at: now,
        last_activity_at: now,
        campus_id: me.campusId,
      })
      .execute();
    await db
      .insertInto('chat_messages')
      .values([
        {
          room_id: room,
          sender_id: me.id,
          content: 'Is the desk sturdy?',
          url: null,
          listing_id: theirs.id,
          sent_at: now,
          flags: '',
          campus_id: me.campusId,
        },
        {
          room_id: room,
          sender_id: peer.id,
          content: 'Very',
          url: null,
          listing_id: theirs.id,
          sent_at: now + 1,
          flags: '',
          campus_id: me.campusId,
        },
      ])
      .execute();
    await db
      .insertInto('chat_reads')
      .values({ room_id: room, user_id: me.id, last_read_message_id: 1, campus_id: me.campusId })
      .execute();

    const res = await call(t, me, 'GET', '/users/me/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const data = res.json() as DataExport;
    expect(data.userId).toBe(me.id);

    // Every table of the database with a student column is in the export.
    const tables = await userTables(t.app.ctx);
    const introspected = (await db.introspection.getTables()).filter((tb) =>
      tb.columns.some((c) => USER_COLUMN.test(c.name)),
    );
    for (const tb of introspected) expect(Object.keys(data.tables), tb.name).toContain(tb.name);
    expect(tables.length).toBeGreaterThanOrEqual(introspected.length);

    const t_ = data.tables;
    expect(t_.users).toEqual([
      expect.objectContaining({ id: me.id, email: me.email, first_name: 'Exporter' }),
    ]);
    expect(JSON.stringify(data)).not.toMatch(/argon|\$2[aby]\$|password_hash|code_hash/);
    expect(t_.listings?.map((r) => r.name)).toEqual(['My lamp']);
    expect(t_.listing_saves?.map((r) => r.listing_id)).toEqual([theirs.id]);
    expect(t_.saved_searches?.map((r) => r.query)).toEqual(['desk']);
    expect(t_.wanted_posts?.map((r) => r.title)).toEqual(['A bike']);
    // Whom I blocked, and what I reported — not who blocked or reported me.
    expect(t_.blocks?.map((r) => r.blocked_id)).toEqual([peer.id]);
    expect(t_.reports?.map((r) => r.target_id)).toEqual([theirs.id]);
    expect(t_.chat_rooms?.map((r) => r.id)).toEqual([room]);
    expect(t_.chat_messages?.map((r) => r.content)).toEqual(['Is the desk sturdy?', 'Very']);
    expect(t_.chat_reads?.length).toBe(1);
    expect(t_.creation_log?.length).toBe(1);
    expect((await call(t, null, 'GET', '/users/me/export')).statusCode).toBe(401);
  });

  it('DELETE /users/me needs the password, then removes listings, photos, saves, searches and wanted posts, keeps messages from "Deleted student" and ends every session', async () => {
    const me = await createStudent(t, { firstName: 'Leaving' });
    const peer = await createStudent(t, { firstName: 'Staying' });
    const listing = await postListing(
      t,
      me,
      validFields({ name: 'Goodbye chair' }),
      await makeJpeg(400, 300),
    );
    const peerListing = await postListing(t, peer, validFields({ name: 'Kept table' }));
    await call(t, me, 'PUT', `/listings/${peerListing.id}/save`);
    await call(t, peer, 'PUT', `/listings/${listing.id}/save`);
    await call(t, me, 'POST', '/searches', { query: 'table' });
    await call(t, me, 'POST', '/wanted', { title: 'A rug', category: 'LIFESTYLE' });
    const now = t.clock.now();
    const room = roomIdFor(me.id, peer.id);
    const db = t.app.ctx.db.kysely;
    await db
      .insertInto('chat_rooms')
      .values({
        id: room,
        low_user_id: Math.min(me.id, peer.id),
        high_user_id: Math.max(me.id, peer.id),
        buyer_id: me.id,
        seller_id: peer.id,
        listing_id: peerListing.id,
        message_count: 1,
        created_at: now,
        last_activity_at: now,
        campus_id: me.campusId,
      })
      .execute();
    await db
      .insertInto('chat_messages')
      .values({
        room_id: room,
        sender_id: me.id,
        content: 'I will take the table',
        url: null,
        listing_id: peerListing.id,
        sent_at: now,
        flags: '',
        campus_id: me.campusId,
      })
      .execute();
    const photoFile = path.join(t.dataDir, 'uploads', path.basename(listing.imageUrl ?? 'none'));
    expect(existsSync(photoFile)).toBe(true);

    expect((await call(t, me, 'DELETE', '/users/me', {})).statusCode).toBe(400);
    const wrong = await call(t, me, 'DELETE', '/users/me', { password: 'not-my-password-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SAFETY_MESSAGES.passwordWrong);
    expect((await call(t, null, 'DELETE', '/users/me', { password: me.password })).statusCode).toBe(401);
    const second = (await login(me)).body;

    const res = await call(t, me, 'DELETE', '/users/me', { password: me.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SAFETY_MESSAGES.accountDeleted);

    // Every session ended; the address cannot log in.
    expect((await call(t, me, 'GET', '/listings')).statusCode).toBe(401);
    expect((await call(t, { ...me, token: second }, 'GET', '/listings')).statusCode).toBe(401);
    expect((await login(me)).statusCode).toBe(401);
    // Listings with their photo files, saves, searches and wanted posts are gone.
    expect((await call(t, peer, 'GET', `/listing/${listing.id}`)).statusCode).toBe(404);
    // The files go by the job queued with the delete (this app's worker runs it).
    await expect.poll(() => existsSync(photoFile), { timeout: 10_000 }).toBe(false);
    const count = async (
      table: 'listing_saves' | 'saved_searches' | 'wanted_posts' | 'listings',
      col: 'user_id' | 'seller_id',
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(col, '=', me.id)
            .executeTakeFirst()
        )?.n,
      );
    expect(await count('listing_saves', 'user_id')).toBe(0);
    expect(await count('saved_searches', 'user_id')).toBe(0);
    expect(await count('wanted_posts', 'user_id')).toBe(0);
    expect(await count('listings', 'seller_id')).toBe(0);
    // The peer's saved list no longer has the deleted listing; their own listing is untouched.
    expect((await call(t, peer, 'GET', '/listings/saved')).json()).toEqual([]);
    expect((await call(t, peer, 'GET', `/listing/${peerListing.id}`)).statusCode).toBe(200);
    // The conversation stays readable to the peer, from "Deleted student".
    const history = (await call(t, peer, 'GET', `/api/chats/${room}`)).json() as ChatMessage[];
    expect(history.map((m) => m.content)).toEqual(['I will take the table']);
    const rooms = (await call(t, peer, 'GET', '/api/chats')).json() as ChatRoomSummary[];
    expect(`${rooms[0]?.peer.firstName} ${rooms[0]?.peer.lastName}`).toBe(SAFETY_MESSAGES.deletedStudent);
    // The e-mail address is free for a new sign-up.
    const again = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: { firstName: 'New', lastName: 'Me', email: me.email, password: 'a-fresh-start-2026' },
    });
    expect(again.statusCode).toBe(201);
  });
});
