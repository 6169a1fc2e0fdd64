/**
 * A bucket that fails (features.md §F): the upload answers 503 with a message a student can act
 * on, no listing or profile points at objects that are not there, and whatever the bucket took
 * before it failed is removed by the durable jobs once it is back (the removal job queued with the
 * take-back, or a chat photo's 24 h expiry). Against a real S3-protocol server (s3rver) that is
 * stopped between two objects, or not listening at all.
 */
import { CHAT_LIMITS, ERROR_CODES, MESSAGES, type Listing, type Profile } from '@campus/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { S3TestServer } from '../../test/s3-server.js';
import { multipartFile } from '../chat/testing.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';

/** Past every retry delay of a failed job (jobs/queue.ts: 5 s doubling, at most 1 h). */
const AFTER_RETRY = 3_600_000;

describe.each(dialects)('a bucket that fails (%s)', (dialect) => {
  let s3: S3TestServer;
  let t: TestApp;
  let jpeg: Buffer;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    // Short bounds, so a hung bucket is given up on in a second here (seconds in production).
    t = await createTestApp({
      dialect,
      jobWorker: false,
      env: s3.env,
      bucketTimeouts: { connectionMs: 500, requestMs: 500, operationMs: 1_000 },
    });
    jpeg = await makeJpeg(300, 200);
  });
  afterEach(async () => {
    await s3.start();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const mine = async (s: Student) =>
    (await asStudent(t, s, { method: 'GET', url: '/listings/self' })).json() as Listing[];
  const post = (s: Student, photos: number) =>
    asStudent(t, s, {
      method: 'POST',
      url: '/listing',
      ...multipart(
        validFields({ name: 'Half-stored lamp' }),
        Array.from({ length: photos }, () => ({ data: jpeg })),
      ),
    });
  /** Runs the due jobs now and again once every retry is due (the bucket may have been down). */
  const cleanUp = async () => {
    await t.app.ctx.jobs.runDue();
    t.clock.advance(AFTER_RETRY);
    await t.app.ctx.jobs.runDue();
  };
  const expect503 = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: MESSAGES.imageStoreFailed, code: ERROR_CODES.internal });
  };

  it('goes away between a photo and its thumbnail: 503, no listing, and no object left after the clean-up', async () => {
    const seller = await createStudent(t);
    await cleanUp();
    const before = await s3.keys();
    s3.dieAfterPuts(1);
    const res = await post(seller, 1);
    expect503(res);
    expect(await mine(seller)).toEqual([]);
    // The bucket took the photo before it died: that object is the one left to clean up.
    await s3.start();
    const left = (await s3.keys()).filter((k) => !before.includes(k));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^msu\/photos\/[0-9a-f-]{36}\.jpg$/);
    await cleanUp();
    expect(await s3.keys()).toEqual(before);
    // The bucket is back: the same form goes through.
    const again = await postListing(t, seller, validFields({ name: 'Half-stored lamp' }), jpeg);
    expect((await fetch(again.imageUrl!)).status).toBe(200);
  });

  it('goes away in the middle of an eight-photo listing and stays down for a while: the clean-up waits for it', async () => {
    const seller = await createStudent(t);
    await cleanUp();
    const before = await s3.keys();
    s3.dieAfterPuts(5);
    expect503(await post(seller, 8));
    expect(await mine(seller)).toEqual([]);
    // Still down: the removal job fails and is retried later, never dropped.
    await t.app.ctx.jobs.runDue();
    await s3.start();
    expect((await s3.keys()).filter((k) => !before.includes(k))).toHaveLength(5);
    await cleanUp();
    expect(await s3.keys()).toEqual(before);
  });

  it('is not there at all: adding a photo and replacing the avatar answer 503 and change nothing', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Desk' }), jpeg);
    const avatar = await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(avatar.statusCode).toBe(200);
    const oldAvatar = (avatar.json() as Profile).avatarUrl;
    await cleanUp();
    const before = await s3.keys();

    await s3.stop();
    expect503(
      await asStudent(t, seller, {
        method: 'POST',
        url: `/listing/${listing.id}/photos`,
        ...multipart({}, [{ data: jpeg }]),
      }),
    );
    expect503(
      await asStudent(t, seller, {
        method: 'POST',
        url: '/users/me/avatar',
        ...multipart({}, [{ data: jpeg }]),
      }),
    );
    expect503(
      await asStudent(t, seller, {
        method: 'POST',
        url: '/api/chats/upload',
        ...multipartFile('image', 'p.jpg', jpeg),
      }),
    );
    const [now] = await mine(seller);
    expect(now!.photos.map((p) => p.url)).toEqual(listing.photos.map((p) => p.url));
    const profile = (
      await asStudent(t, seller, { method: 'GET', url: `/users/${seller.id}/profile` })
    ).json() as Profile;
    expect(profile.avatarUrl).toBe(oldAvatar);
    // Browsing still works while the bucket is away: only storing photos needs it.
    expect((await asStudent(t, seller, { method: 'GET', url: '/listings' })).statusCode).toBe(200);

    await s3.start();
    await cleanUp();
    t.clock.advance(CHAT_LIMITS.unsentPhotoTtlMs);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys()).toEqual(before);
  });

  it('hangs: the upload is given up on and answers 503, and nothing is left once it answers again', async () => {
    const seller = await createStudent(t);
    await cleanUp();
    const before = await s3.keys();
    s3.hang();
    expect503(await post(seller, 2));
    expect(await mine(seller)).toEqual([]);
    await s3.start();
    await cleanUp();
    expect(await s3.keys()).toEqual(before);
  });

  it('a deletion while the bucket is down removes the objects once it is back', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Chair' }), jpeg);
    await cleanUp();
    const stem = listing.imageUrl!.slice(s3.publicBaseUrl.length + 1).replace('.jpg', '');
    expect(await s3.keys(stem)).toHaveLength(8);

    await s3.stop();
    const deleted = await asStudent(t, seller, { method: 'DELETE', url: `/listing/${listing.id}` });
    expect(deleted.statusCode).toBe(200);
    expect(await mine(seller)).toEqual([]);
    await t.app.ctx.jobs.runDue();

    await s3.start();
    expect(await s3.keys(stem)).toHaveLength(8);
    await cleanUp();
    expect(await s3.keys(stem)).toEqual([]);
  });

  it('a chat photo the bucket dropped half-way is removed by its expiry job', async () => {
    const student = await createStudent(t);
    await cleanUp();
    const before = await s3.keys();
    s3.dieAfterPuts(1);
    expect503(
      await asStudent(t, student, {
        method: 'POST',
        url: '/api/chats/upload',
        ...multipartFile('image', 'p.jpg', jpeg),
      }),
    );
    await s3.start();
    const left = (await s3.keys()).filter((k) => !before.includes(k));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^msu\/chat\/[0-9a-f-]{36}\.jpg$/);
    t.clock.advance(CHAT_LIMITS.unsentPhotoTtlMs);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys()).toEqual(before);
  });
});
