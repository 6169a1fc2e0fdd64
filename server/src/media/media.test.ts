import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LIMITS, MESSAGES } from '@campus/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { ListingsService } from '../listings/service.js';
import { LiveSearchIndex } from '../listings/search/live-index.js';
import { makeJpeg, multipart, validFields } from '../listings/testing.js';
import { HttpError } from '../http/errors.js';
import { inCampus } from '../db/campus-scope.js';
import { THUMB_HEIGHT, THUMB_WIDTH, processJpeg } from './image.js';
import { isStoredImageUrl, readLimited, removeStoredImage, storeJpeg } from './index.js';

/** A noisy photo-like JPEG (so its scan data is substantial). */
async function noisyJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 1) raw[i] = (i * 7919 + (i >> 5) * 104729) & 0xff;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A tiny JPEG whose frame header claims width x height (a decompression bomb). */
async function bomb(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await makeJpeg(64, 64));
  for (let i = 2; i < jpeg.length - 9; i += 1) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF marker');
}

async function rejects(input: Buffer, status: number, message: string) {
  const err = await processJpeg(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).statusCode).toBe(status);
  expect((err as HttpError).message).toBe(message);
}

describe('processJpeg', () => {
  it('refuses anything that is not a JPEG by content, whatever it is called', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0f0' } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0f0' } })
      .webp()
      .toBuffer();
    await rejects(png, 400, MESSAGES.imageNotJpeg);
    await rejects(webp, 400, MESSAGES.imageNotJpeg);
    await rejects(Buffer.from('GIF89a...'), 400, MESSAGES.imageNotJpeg);
    await rejects(Buffer.alloc(0), 400, MESSAGES.imageNotJpeg);
  });

  it('refuses JPEG magic followed by garbage, and a truncated JPEG', async () => {
    await rejects(
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]),
      400,
      MESSAGES.imageUnreadable,
    );
    const good = await noisyJpeg(400, 300);
    await rejects(good.subarray(0, Math.floor(good.length * 0.6)), 400, MESSAGES.imageUnreadable);
  });

  it('refuses a decompression bomb (20000 x 20000 declared in a tiny file) before decoding it', async () => {
    const b = await bomb(20_000, 20_000);
    expect(b.length).toBeLessThan(10_000);
    const started = performance.now();
    await rejects(b, 400, MESSAGES.imageTooManyPixels);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses more than 10 MB with 413', async () => {
    const big = Buffer.alloc(LIMITS.imageMaxBytes + 1, 0);
    big.set([0xff, 0xd8, 0xff]);
    await rejects(big, 413, MESSAGES.imageTooLarge);
  });

  it('strips all metadata (EXIF, GPS) and applies the EXIF orientation', async () => {
    const input = await makeJpeg(800, 600, { exif: true });
    const inMeta = await sharp(input).metadata();
    expect(inMeta.exif?.includes(Buffer.from('SpyCam'))).toBe(true);
    expect(inMeta.orientation).toBe(6);
    const { image, thumb } = await processJpeg(input);
    for (const out of [image, thumb]) {
      const meta = await sharp(out).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(out.includes(Buffer.from('SpyCam'))).toBe(false);
      expect(out.includes(Buffer.from('Exif'))).toBe(false);
    }
    // Orientation 6 = rotate 90° clockwise: the stored photo is portrait.
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([600, 800]);
  });

  it('fits the photo inside 1600 px without enlarging, and makes a 4:3 thumbnail', async () => {
    const large = await processJpeg(await makeJpeg(4000, 3000));
    expect([large.width, large.height]).toEqual([1600, 1200]);
    const tall = await processJpeg(await makeJpeg(1000, 3000));
    expect([tall.width, tall.height]).toEqual([533, 1600]);
    const small = await processJpeg(await makeJpeg(300, 200));
    expect([small.width, small.height]).toEqual([300, 200]);
    const thumbMeta = await sharp(small.thumb).metadata();
    expect([thumbMeta.width, thumbMeta.height]).toEqual([THUMB_WIDTH, THUMB_HEIGHT]);
    expect(THUMB_WIDTH).toBe(LIMITS.thumbnailSide);
  });
});

describe('readLimited', () => {
  it('reads a stream and refuses more than the limit with 413', async () => {
    expect(await readLimited(Readable.from([Buffer.from('abc'), Buffer.from('def')]))).toEqual(
      Buffer.from('abcdef'),
    );
    const err = await readLimited(Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), 10).catch(
      (e: unknown) => e,
    );
    expect((err as HttpError).statusCode).toBe(413);
  });
});

describe.each(dialects)('storing photos (%s)', (dialect) => {
  let t: TestApp;
  // Stored photos and thumbnails (their responsive variants are made by a background job).
  const files = async () =>
    (await readdir(path.join(t.dataDir, 'uploads')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.jpg'),
    );

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('storeJpeg writes the photo and thumbnail under random names; removeStoredImage deletes them', async () => {
    // With the app's job queue the variants job is filed under a campus: the one in scope.
    const campus = t.app.ctx.campuses.default.id;
    const a = await inCampus(campus, async () => storeJpeg(t.app.ctx, await makeJpeg()));
    const b = await inCampus(campus, async () => storeJpeg(t.app.ctx, Readable.from([await makeJpeg()])));
    expect(a.imageKey).not.toBe(b.imageKey);
    expect(a.imageUrl).toBe(`/uploads/${a.imageKey}`);
    expect(a.thumbnailUrl).toBe(`/uploads/${a.thumbKey}`);
    expect(isStoredImageUrl(a.imageUrl)).toBe(true);
    expect(isStoredImageUrl('https://evil.example/x.jpg')).toBe(false);
    expect(await files()).toEqual(expect.arrayContaining([a.imageKey, a.thumbKey, b.imageKey, b.thumbKey]));
    await removeStoredImage(t.app.ctx, a.imageKey, a.thumbKey, b.imageKey, b.thumbKey, '../market.db', null);
    expect(await files()).toEqual([]);
  });

  it('storeJpeg with a job queue but no campus in scope is refused before any file is written', async () => {
    await expect(storeJpeg(t.app.ctx, await makeJpeg())).rejects.toThrow(/campus/i);
    expect(await files()).toEqual([]);
  });

  it('removes the files again when the database row cannot be written', async () => {
    const service = new ListingsService(t.app.ctx, new LiveSearchIndex(t.app.ctx.db), {
      checkWrite: async () => {},
      hiddenSellers: { of: async () => new Set(), cached: () => undefined },
      toggleSold: async () => undefined,
    });
    const ghost = { userId: 987_654, email: 'ghost@msu.edu', tokenVersion: 0, campusId: 1 };
    const jpeg = await makeJpeg();
    // As a request of the ghost's campus would: the row fails on its unknown seller.
    await expect(
      inCampus(ghost.campusId, () => service.create(ghost, validFields(), jpeg)),
    ).rejects.toThrow();
    expect(await files()).toEqual([]);
  });

  it('through the API: PNG named .jpg, truncated JPEG and a bomb are 400; GPS never reaches the stored copy', async () => {
    const student = await createStudent(t);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
      .png()
      .toBuffer();
    const good = await noisyJpeg(300, 200);
    const cases: Array<[Buffer, string]> = [
      [png, MESSAGES.imageNotJpeg],
      [good.subarray(0, Math.floor(good.length / 2)), MESSAGES.imageUnreadable],
      [await bomb(20_000, 20_000), MESSAGES.imageTooManyPixels],
    ];
    for (const [data, message] of cases) {
      const res = await asStudent(t, student, {
        method: 'POST',
        url: '/listing',
        ...multipart(validFields(), [{ filename: 'holiday.jpg', contentType: 'image/jpeg', data }]),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await files()).toEqual([]);
    const res = await asStudent(t, student, {
      method: 'POST',
      url: '/listing/new',
      ...multipart(validFields(), [
        { filename: 'IMG_0001.JPG', data: await makeJpeg(1000, 800, { exif: true }) },
      ]),
    });
    expect(res.statusCode).toBe(201);
    const [listing] = (
      await asStudent(t, student, { method: 'GET', url: '/listings/self' })
    ).json() as Array<{ imageUrl: string }>;
    const served = await t.app.inject({ method: 'GET', url: listing?.imageUrl ?? '' });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    expect(served.rawPayload.includes(Buffer.from('SpyCam'))).toBe(false);
  });
});
