/**
 * The orphan sweep in a bucket (media/orphans.ts), against a real S3-protocol server (s3rver):
 * each campus's daily job lists its own prefix page by page and removes objects no row of that
 * campus names, once they are an hour old; named ones (listing photos, thumbnails, variants,
 * avatars, chat photos) and other campuses' objects stay; a bucket that fails mid-sweep fails the
 * run, which finishes when the bucket is back.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Profile } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';
import { S3TestServer } from '../../test/s3-server.js';
import { multipartFile } from '../chat/testing.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';
import {
  MEDIA_ORPHANS_JOB,
  ORPHAN_GRACE_MS,
  nextSweepAt,
  queueOrphanSweep,
  scheduleOrphanSweeps,
} from './orphans.js';

/** Past every retry delay of a failed job (jobs/queue.ts: 5 s doubling, at most 1 h). */
const AFTER_RETRY = 3_600_000;

describe.each(dialects)('the orphan sweep in a bucket (%s)', (dialect) => {
  let s3: S3TestServer;
  let t: TestApp;
  let jpeg: Buffer;
  let msu: number;
  let uw: number;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    t = await createTestApp({
      dialect,
      jobWorker: false,
      env: { ...TWO_CAMPUSES, ...s3.env },
      // Three objects per run, so one sweep lists several pages (ListObjectsV2 StartAfter).
      orphanSweep: { pageSize: 3 },
      bucketTimeouts: { connectionMs: 500, requestMs: 500, operationMs: 1_000 },
    });
    jpeg = await makeJpeg(64, 48);
    msu = t.app.ctx.campuses.bySlug('msu')!.id;
    uw = t.app.ctx.campuses.bySlug('uw')!.id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** The object key under PHOTO_BASE_URL. */
  const keyOf = (url: string) => new URL(url).pathname.slice(`/${s3.bucket}/`.length);
  const put = async (key: string) => {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'bytes' }));
    return key;
  };
  /** The sweeps filed and not yet run (a failed run waiting for its retry has its error). */
  const pendingSweeps = async () => {
    const rows = await t.app.ctx.db.kysely
      .selectFrom('jobs')
      .select(['campus_id', 'run_at', 'last_error'])
      .where('type', '=', MEDIA_ORPHANS_JOB)
      .where('failed_at', 'is', null)
      .orderBy('campus_id')
      .execute();
    return rows.map((r) => ({ campusId: Number(r.campus_id), runAt: Number(r.run_at), error: r.last_error }));
  };
  /** The pending sweeps, then forgotten (so a later clock move does not run them). */
  const filedSweeps = async () => {
    const rows = await pendingSweeps();
    await t.app.ctx.db.kysely.deleteFrom('jobs').where('type', '=', MEDIA_ORPHANS_JOB).execute();
    return rows;
  };
  const runSweeps = () => t.app.ctx.jobs.runDue({ types: [MEDIA_ORPHANS_JOB] });
  const sweep = async (campusId: number) => {
    await queueOrphanSweep(t.app.ctx, campusId);
    await runSweeps();
  };
  /** Images of every kind a row names, in msu's prefix. */
  const namedObjects = async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Kept lamp' }), jpeg);
    const photo = keyOf(listing.imageUrl!);
    const stem = photo.replace('.jpg', '');
    const variants = [await put(`${stem}-w320.avif`), await put(`${stem}-w1280.webp`)];
    const avatar = await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    const chat = await asStudent(t, seller, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'p.jpg', jpeg),
    });
    expect(chat.statusCode, chat.body).toBe(200);
    const chatPhoto = keyOf(chat.body);
    const avatarKey = keyOf((avatar.json() as Profile).avatarUrl!);
    const named = [
      photo,
      keyOf(listing.thumbnailUrl!),
      ...variants,
      avatarKey,
      avatarKey.replace('.jpg', '-thumb.jpg'),
      chatPhoto,
      chatPhoto.replace('.jpg', '-thumb.jpg'),
    ];
    expect(named.every((k) => k.startsWith('msu/'))).toBe(true);
    expect(chatPhoto).toMatch(/^msu\/chat\//);
    return named;
  };

  it("removes a campus's old orphans, keeps what rows name, and never touches another campus", async () => {
    const before = await s3.keys();
    const named = await namedObjects();
    const gone = randomUUID();
    const orphans = [
      await put(`msu/photos/${gone}.jpg`),
      await put(`msu/photos/${gone}-thumb.jpg`),
      await put(`msu/photos/${gone}-w640.avif`),
      await put(`msu/chat/${randomUUID()}.jpg`),
    ];
    // Another campus's orphan; and a key msu's rows name, but under uw: uw's rows do not.
    const uwOrphans = [await put(`uw/photos/${randomUUID()}.jpg`), await put(`uw/${named[0]!.slice(4)}`)];
    // Not named as this app names images: never touched.
    const foreign = [await put('msu/photos/notes.txt'), await put('msu/backup/old.jpg')];

    // Written just now: inside the grace, nothing goes.
    await sweep(msu);
    const all = [...before, ...named, ...orphans, ...uwOrphans, ...foreign].sort();
    expect(await s3.keys()).toEqual(all);
    await filedSweeps();

    // An hour on they are old: msu's orphans go, page after page; uw's stay.
    t.clock.advance(ORPHAN_GRACE_MS + 60_000);
    await sweep(msu);
    expect(await s3.keys()).toEqual(all.filter((k) => !orphans.includes(k)));
    // The daily run filed the next one, tomorrow.
    expect(await filedSweeps()).toEqual([
      { campusId: msu, runAt: nextSweepAt(t.app.ctx.clock()), error: null },
    ]);

    // uw's own sweep removes uw's, and nothing of msu's.
    await sweep(uw);
    expect(await s3.keys()).toEqual(all.filter((k) => !orphans.includes(k) && !uwOrphans.includes(k)));
    await filedSweeps();
  });

  it('fails a run while the bucket is away, leaves every object, and finishes once it is back', async () => {
    const named = await namedObjects();
    // Orphans that sort early in msu's prefix, so the first page holds some of them.
    const orphans: string[] = [];
    for (let i = 0; i < 8; i += 1)
      orphans.push(await put(`msu/chat/00000000-0000-4000-8000-${randomBytes(6).toString('hex')}.jpg`));
    orphans.sort();
    t.clock.advance(ORPHAN_GRACE_MS + 60_000);
    const held = await s3.keys();

    // Away from the start: the run fails before it lists, and the bucket holds what it held.
    await queueOrphanSweep(t.app.ctx, msu);
    await s3.stop();
    await runSweeps();
    await s3.start();
    expect(await s3.keys()).toEqual(held);
    // Failed, to be tried again (and tomorrow's run filed before it failed).
    expect((await filedSweeps()).map((r) => r.error !== null).sort()).toEqual([false, true]);

    // The first page goes through; the bucket goes away before the next.
    await queueOrphanSweep(t.app.ctx, msu);
    expect(await t.app.ctx.jobs.runDue({ types: [MEDIA_ORPHANS_JOB], limit: 1 })).toBe(1);
    await s3.stop();
    await runSweeps();
    expect((await pendingSweeps()).filter((r) => r.error !== null)).toHaveLength(1);
    await s3.start();
    const after = await s3.keys();
    const firstPage = held.filter((k) => k.startsWith('msu/')).slice(0, 3);
    const removed = held.filter((k) => !after.includes(k));
    expect(removed.length).toBeGreaterThan(0);
    expect(removed).toEqual(firstPage.filter((k) => orphans.includes(k)));

    // Its retry, once the bucket is back, finishes the sweep.
    t.clock.advance(AFTER_RETRY);
    await runSweeps();
    expect(await s3.keys()).toEqual(held.filter((k) => !orphans.includes(k)));
    expect((await filedSweeps()).filter((r) => r.error !== null)).toEqual([]);
    expect(named.every((k) => held.includes(k))).toBe(true);
  });

  it('files one daily run per campus, once however many processes start', async () => {
    await scheduleOrphanSweeps(t.app.ctx);
    await scheduleOrphanSweeps(t.app.ctx);
    const at = nextSweepAt(t.app.ctx.clock());
    expect(await filedSweeps()).toEqual([
      { campusId: msu, runAt: at, error: null },
      { campusId: uw, runAt: at, error: null },
    ]);
  });

  it('a uw student sees no difference: their avatar stays through both sweeps', async () => {
    const student = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    const res = await asStudent(t, student, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    const url = (res.json() as Profile).avatarUrl!;
    t.clock.advance(ORPHAN_GRACE_MS + 60_000);
    await sweep(msu);
    await sweep(uw);
    expect((await fetch(url)).status).toBe(200);
    await filedSweeps();
  });
});
