/** Chat photos: uploads (JPEG only, metadata stripped), only the sender's own sent, unsent ones expire. */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CHAT_LIMIT_MESSAGES, CHAT_LIMITS, MESSAGES } from '@campus/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { inCampus } from '../db/campus-scope.js';
import { HttpError } from '../http/errors.js';
import { makeJpeg } from '../listings/testing.js';
import { storeJpeg } from '../media/index.js';
import { CHAT_PHOTO_EXPIRE_JOB } from './photos.js';
import { createListing, multipartFile, sendAs, uploadChatPhoto } from './testing.js';

describe.each(dialects)('chat photos (%s)', (dialect) => {
  let t: TestApp;
  let buyer: Student;
  let seller: Student;
  let listingId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    buyer = await createStudent(t);
    seller = await createStudent(t);
    listingId = await createListing(t, seller.id);
  });
  afterAll(() => t.close());

  const files = async () =>
    (await readdir(path.join(t.dataDir, 'uploads')).catch(() => [] as string[])).sort();
  const upload = (s: Student) => uploadChatPhoto(t, s);
  const send = (senderId: number, url: string) =>
    sendAs(t, senderId, buyer.id, seller.id, { content: '', url, listingId });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    return { status: (err as HttpError).statusCode, message: (err as HttpError).message };
  };
  const photoJobs = () =>
    t.app.ctx.db.kysely
      .selectFrom('jobs')
      .select(['key', 'run_at'])
      .where('type', '=', CHAT_PHOTO_EXPIRE_JOB)
      .execute();

  it('uploads a chat photo (JPEG by content, metadata stripped) and answers its URL', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .withExif({ IFD0: { Copyright: 'secret-gps-owner' } })
      .jpeg()
      .toBuffer();
    const res = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'a.jpg', jpeg),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);
    const stored = await readFile(path.join(t.dataDir, 'uploads', res.body.slice('/uploads/'.length)));
    expect(stored.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(stored.includes(Buffer.from('secret-gps-owner'))).toBe(false);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const notJpeg = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'x.jpg', png),
    });
    expect(notJpeg.statusCode).toBe(400);
    expect(notJpeg.json()).toMatchObject({ message: MESSAGES.imageNotJpeg });
    const wrongField = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('photo', 'a.jpg', jpeg),
    });
    expect(wrongField.json()).toMatchObject({ message: MESSAGES.noFileUploaded });
    const empty = await asStudent(t, buyer, { method: 'POST', url: '/api/chats/upload', payload: {} });
    expect(empty.json()).toMatchObject({ message: MESSAGES.noFileUploaded });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'a.jpg', jpeg),
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("accepts the sender's own upload and refuses anyone else's or one never uploaded", async () => {
    const mine = await upload(buyer);
    expect((await send(buyer.id, mine)).url).toBe(mine);
    expect(await refusal(send(seller.id, mine))).toEqual({
      status: 400,
      message: CHAT_LIMIT_MESSAGES.photoNotYours,
    });
    expect(await refusal(send(buyer.id, `/uploads/${randomUUID()}.jpg`))).toEqual({
      status: 400,
      message: CHAT_LIMIT_MESSAGES.photoNotYours,
    });
    expect(await refusal(send(buyer.id, 'https://elsewhere.example/x.jpg'))).toEqual({
      status: 400,
      message: MESSAGES.chatImageNotOurs,
    });
  });

  it('answers 400 with a clear message for a photo part that ends early, as listing uploads do', async () => {
    // A real photo's size: the parser meets the cut after the first read, inside the file stream.
    const noise = randomBytes(800 * 600 * 3);
    const photo = await sharp(noise, { raw: { width: 800, height: 600, channels: 3 } })
      .jpeg()
      .toBuffer();
    const head =
      '--x\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
    const payload = Buffer.concat([Buffer.from(head), photo.subarray(0, photo.length >> 1)]);
    for (const url of ['/api/chats/upload', '/listing/new']) {
      const res = await asStudent(t, buyer, {
        method: 'POST',
        url,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload,
      });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        400,
        { message: CHAT_LIMIT_MESSAGES.malformedMultipart, code: 'VALIDATION' },
      ]);
    }
  });

  it('removes an upload nobody sent after 24 h and keeps a sent one', async () => {
    const sent = await upload(buyer);
    await send(buyer.id, sent);
    const unsent = await upload(buyer);
    const name = (url: string) => url.slice('/uploads/'.length);
    expect(await files()).toEqual(expect.arrayContaining([name(sent), name(unsent)]));
    const jobs = await photoJobs();
    expect(jobs.map((j) => j.key)).toContain(`${CHAT_PHOTO_EXPIRE_JOB}:${name(unsent)}`);

    // Not before 24 h.
    t.clock.advance(CHAT_LIMITS.unsentPhotoTtlMs - 60_000);
    await t.app.ctx.jobs.runDue({ types: [CHAT_PHOTO_EXPIRE_JOB] });
    expect(await files()).toContain(name(unsent));

    t.clock.advance(60_000);
    await t.app.ctx.jobs.runDue({ types: [CHAT_PHOTO_EXPIRE_JOB] });
    const left = await files();
    expect(left).not.toContain(name(unsent));
    expect(left).not.toContain(name(unsent).replace('.jpg', '-thumb.jpg'));
    expect(left).toContain(name(sent));
    expect((await asStudent(t, buyer, { method: 'GET', url: sent })).statusCode).toBe(200);
    // The expired photo is no longer the buyer's to send.
    expect((await refusal(send(buyer.id, unsent))).message).toBe(CHAT_LIMIT_MESSAGES.photoNotYours);
  });

  it('records the upload and its removal job before writing any file (a crash leaves nothing unknown)', async () => {
    // storeJpeg called as the upload route calls it: as work of the student's campus.
    const asBuyer = <T>(work: () => Promise<T>) => inCampus(buyer.campusId, work);
    const before = await files();
    const failed = asBuyer(async () =>
      storeJpeg(t.app.ctx, await makeJpeg(32, 32), {
        beforeWrite: async () => {
          throw new Error('database unreachable');
        },
      }),
    );
    await expect(failed).rejects.toThrow('database unreachable');
    expect(await files()).toEqual(before);

    // Written by a process that then died before answering: its record and job exist, so it expires.
    let keys: { imageKey: string } | undefined;
    await asBuyer(async () =>
      storeJpeg(t.app.ctx, await makeJpeg(32, 32), {
        beforeWrite: async (k) => {
          keys = k;
          await t.app.ctx.db.kysely
            .insertInto('chat_uploads')
            .values({
              image_key: k.imageKey,
              thumb_key: k.thumbKey,
              user_id: buyer.id,
              created_at: t.clock.now(),
            })
            .execute();
          await t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, CHAT_PHOTO_EXPIRE_JOB, k, {
            runAt: t.clock.now() + CHAT_LIMITS.unsentPhotoTtlMs,
          });
        },
      }),
    );
    expect(await files()).toContain(keys?.imageKey);
    t.clock.advance(CHAT_LIMITS.unsentPhotoTtlMs);
    await t.app.ctx.jobs.runDue({ types: [CHAT_PHOTO_EXPIRE_JOB] });
    expect(await files()).not.toContain(keys?.imageKey);
  });
});
