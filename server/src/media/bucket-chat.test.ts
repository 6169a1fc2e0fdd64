/**
 * Chat photos in a bucket (features.md §F): private objects under `{campus}/chat/`, handed out
 * only as URLs signed for at most 15 minutes, and only in answers the two students of the room
 * get (the upload's, the sent message, history, the room list). A stranger, a student of another
 * campus or an anonymous caller gets no answer that carries one.
 */
import { CHAT_LIMIT_MESSAGES, CHAT_LIMITS, type ChatMessage, type ChatRoomSummary } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { S3TestServer } from '../../test/s3-server.js';
import { CHAT_PHOTO_EXPIRE_JOB } from '../chat/photos.js';
import { createListing, multipartFile, sendAs } from '../chat/testing.js';
import { HttpError } from '../http/errors.js';
import { makeJpeg } from '../listings/testing.js';

/** What a signed URL names and how long it is valid from now (ms). */
function signed(s3: S3TestServer, url: string, now: number) {
  const u = new URL(url);
  const date = u.searchParams.get('X-Amz-Date')!;
  const issued = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(4, 6)) - 1,
    Number(date.slice(6, 8)),
    Number(date.slice(9, 11)),
    Number(date.slice(11, 13)),
    Number(date.slice(13, 15)),
  );
  return {
    origin: u.origin,
    key: u.pathname.slice(`/${s3.bucket}/`.length),
    expires: Number(u.searchParams.get('X-Amz-Expires')),
    validForMs: issued + Number(u.searchParams.get('X-Amz-Expires')) * 1000 - now,
    signature: u.searchParams.has('X-Amz-Signature'),
  };
}

describe.each(dialects)('chat photos in a bucket (%s)', (dialect) => {
  let s3: S3TestServer;
  let t: TestApp;
  let buyer: Student;
  let seller: Student;
  let stranger: Student;
  let otherCampus: Student;
  let listingId: number;
  let jpeg: Buffer;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    t = await createTestApp({ dialect, jobWorker: false, env: { ...TWO_CAMPUSES, ...s3.env } });
    buyer = await createStudent(t);
    seller = await createStudent(t);
    stranger = await createStudent(t);
    otherCampus = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    listingId = await createListing(t, seller.id);
    jpeg = await makeJpeg(64, 48);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const upload = async (s: Student): Promise<string> => {
    const res = await asStudent(t, s, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'p.jpg', jpeg),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  const history = (s: Student | null, roomId: string) =>
    s
      ? asStudent(t, s, { method: 'GET', url: `/api/chats/${roomId}` })
      : t.app.inject({ method: 'GET', url: `/api/chats/${roomId}` });
  const photoIn = async (s: Student, roomId: string) => {
    const res = await history(s, roomId);
    expect(res.statusCode, res.body).toBe(200);
    const messages = res.json() as ChatMessage[];
    return messages.filter((m) => m.url !== null).at(-1)!.url!;
  };
  const expectPrivate = (url: string) => {
    const s = signed(s3, url, t.clock.now());
    expect(s.origin).toBe(new URL(s3.endpoint).origin);
    expect(s.key).toMatch(/^msu\/chat\/[0-9a-f-]{36}\.jpg$/);
    expect(s.signature).toBe(true);
    expect(s.expires).toBeLessThanOrEqual(15 * 60);
    expect(s.validForMs).toBeLessThanOrEqual(15 * 60_000);
    expect(s.validForMs).toBeGreaterThan(0);
    return s.key;
  };

  it('answers the upload with a signed URL to a private object, and the room gets the photo signed', async () => {
    const url = await upload(buyer);
    const key = expectPrivate(url);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(got.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    // Not under the public prefix, so a bucket policy that opens `*/photos/*` keeps it closed.
    expect((await fetch(`${s3.publicBaseUrl}/${key.replace('/chat/', '/photos/')}`)).status).toBe(404);

    const sent = await sendAs(t, buyer.id, buyer.id, seller.id, { content: '', url, listingId });
    expect(expectPrivate(sent.url!)).toBe(key);
    // Both students of the room read it, each through a signed URL that works.
    for (const member of [buyer, seller]) {
      const seen = await photoIn(member, sent.roomId);
      expect(expectPrivate(seen)).toBe(key);
      expect((await fetch(seen)).status).toBe(200);
    }
    const rooms = (
      await asStudent(t, seller, { method: 'GET', url: '/api/chats' })
    ).json() as ChatRoomSummary[];
    const room = rooms.find((r) => r.id === sent.roomId)!;
    expect(expectPrivate(room.lastMessage!.url!)).toBe(key);
    // Nobody else gets an answer that carries it.
    expect((await history(stranger, sent.roomId)).statusCode).toBe(403);
    expect((await history(otherCampus, sent.roomId)).statusCode).toBe(403);
    expect((await history(null, sent.roomId)).statusCode).toBe(401);
    const strangerRooms = (
      await asStudent(t, stranger, { method: 'GET', url: '/api/chats' })
    ).json() as unknown[];
    expect(JSON.stringify(strangerRooms)).not.toContain(key);
  });

  it('stores the photo, not a signed URL: nobody can send it but its uploader, and it is signed afresh for each reading', async () => {
    const url = await upload(buyer);
    const refusal = await sendAs(t, stranger.id, stranger.id, seller.id, {
      content: '',
      url,
      listingId,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).message).toBe(CHAT_LIMIT_MESSAGES.photoNotYours);
    const sent = await sendAs(t, buyer.id, buyer.id, seller.id, { content: '', url, listingId });
    const stored = await t.app.ctx.db.kysely
      .selectFrom('chat_messages')
      .select('url')
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(stored.url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);

    // A signed URL with a session token (an instance role's) is far longer than s3rver's: accepted.
    const long = new URL(url);
    long.searchParams.set('X-Amz-Security-Token', 'T'.repeat(1500));
    const again = await sendAs(t, buyer.id, buyer.id, seller.id, { content: '', url: long.href, listingId });
    expect(signed(s3, again.url!, t.clock.now()).key).toBe(signed(s3, url, t.clock.now()).key);

    // A URL handed out 16 minutes ago no longer opens the photo; a fresh reading does.
    const realNow = t.clock.now();
    t.clock.nowMs = realNow - 16 * 60_000;
    const old = await photoIn(seller, sent.roomId);
    t.clock.nowMs = realNow;
    expect((await fetch(old)).status).toBe(403);
    const fresh = await photoIn(seller, sent.roomId);
    expect((await fetch(fresh)).status).toBe(200);
  });

  it('removes an unsent chat photo from the bucket after 24 h and keeps a sent one', async () => {
    const sent = expectPrivate(await upload(buyer));
    await sendAs(t, buyer.id, buyer.id, seller.id, {
      content: '',
      url: `/uploads/${sent.split('/').at(-1)}`,
      listingId,
    });
    const unsent = expectPrivate(await upload(buyer));
    const stem = (key: string) => key.replace('.jpg', '');
    expect(await s3.keys(stem(unsent))).toHaveLength(2);
    t.clock.advance(CHAT_LIMITS.unsentPhotoTtlMs);
    await t.app.ctx.jobs.runDue({ types: [CHAT_PHOTO_EXPIRE_JOB] });
    expect(await s3.keys(stem(unsent))).toEqual([]);
    expect(await s3.keys(stem(sent))).toHaveLength(2);
    t.clock.nowMs = Date.now();
  });
});
