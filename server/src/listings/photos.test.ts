import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart, postListing, validFields } from './testing.js';

describe.each(dialects)('listing photos (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let other: Student;
  let jpeg: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    seller = await createStudent(t);
    other = await createStudent(t);
    jpeg = await makeJpeg(64, 48);
  });
  afterAll(async () => {
    await t.close();
  });

  // Stored photos and thumbnails (their responsive variants are made by a background job).
  const uploads = async () =>
    (await readdir(path.join(t.dataDir, 'uploads')).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.jpg'))
      .sort();
  const addPhoto = (s: Student | null, id: number, data: Buffer = jpeg) => {
    const form = multipart({}, [{ data }]);
    const options = { method: 'POST' as const, url: `/listing/${id}/photos`, ...form };
    return s ? asStudent(t, s, options) : t.app.inject(options);
  };
  const fileOf = (url: string) => url.replace('/uploads/', '');

  it('creates with repeated image parts, first is the cover, photos carry id/url/thumbnailUrl', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Three photos' }), undefined);
    expect(listing.photos).toEqual([]);
    const form = multipart(validFields({ name: 'Sofa with photos' }), [
      { data: jpeg },
      { data: jpeg },
      { data: jpeg },
    ]);
    const res = await asStudent(t, seller, { method: 'POST', url: '/listing', ...form });
    expect(res.statusCode).toBe(201);
    const [sofa] = (
      await asStudent(t, seller, { method: 'GET', url: '/listings/self?limit=1' })
    ).json() as Listing[];
    expect(sofa?.photos).toHaveLength(3);
    for (const p of sofa?.photos ?? []) {
      expect(Object.keys(p).sort()).toEqual(['id', 'thumbnailUrl', 'url', 'variants']);
      expect(p.url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);
    }
    expect(sofa?.imageUrl).toBe(sofa?.photos[0]?.url);
    expect(sofa?.thumbnailUrl).toBe(sofa?.photos[0]?.thumbnailUrl);
  });

  it('adds up to 8, removes (files deleted after the row) and reorders; the cover follows', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Bike' }), jpeg);
    let current = listing;
    for (let i = 1; i < 8; i += 1) {
      const res = await addPhoto(seller, listing.id);
      expect(res.statusCode).toBe(201);
      current = res.json() as Listing;
    }
    expect(current.photos).toHaveLength(8);
    const before = await uploads();
    const ninth = await addPhoto(seller, listing.id);
    expect(ninth.statusCode).toBe(400);
    expect(ninth.json().message).toBe(SELLING_MESSAGES.photosTooMany);
    expect(await uploads()).toEqual(before);

    const ids = current.photos.map((p) => p.id);
    const reversed = [...ids].reverse();
    const ordered = await asStudent(t, seller, {
      method: 'PUT',
      url: `/listing/${listing.id}/photos/order`,
      payload: { photoIds: reversed },
    });
    expect(ordered.statusCode).toBe(200);
    const after = ordered.json() as Listing;
    expect(after.photos.map((p) => p.id)).toEqual(reversed);
    expect(after.imageUrl).toBe(after.photos[0]?.url);

    const cover = after.photos[0]!;
    const removed = await asStudent(t, seller, {
      method: 'DELETE',
      url: `/listing/${listing.id}/photos/${cover.id}`,
    });
    expect(removed.statusCode).toBe(200);
    const left = removed.json() as Listing;
    expect(left.photos.map((p) => p.id)).toEqual(reversed.slice(1));
    expect(left.imageUrl).toBe(left.photos[0]?.url);
    // The files go by the job queued with the row's delete.
    await t.app.ctx.jobs.runDue();
    const files = await uploads();
    expect(files).not.toContain(fileOf(cover.url));
    expect(files).not.toContain(fileOf(cover.thumbnailUrl));
    const again = await asStudent(t, seller, {
      method: 'DELETE',
      url: `/listing/${listing.id}/photos/${cover.id}`,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(SELLING_MESSAGES.photoNotFound);
  });

  it('refuses bad orders: missing, repeated, foreign or non-numeric ids', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Order' }), jpeg);
    const second = ((await addPhoto(seller, listing.id)).json() as Listing).photos.map((p) => p.id);
    const foreign = await postListing(t, other, validFields({ name: 'Foreign' }), jpeg);
    for (const photoIds of [
      [second[0]],
      [second[0], second[0]],
      [second[0], foreign.photos[0]?.id],
      ['1', '2'],
      [],
      'nope',
    ]) {
      const res = await asStudent(t, seller, {
        method: 'PUT',
        url: `/listing/${listing.id}/photos/order`,
        payload: { photoIds },
      });
      expect(res.statusCode, JSON.stringify(photoIds)).toBe(400);
      expect(res.json().message).toBe(SELLING_MESSAGES.photoOrderInvalid);
    }
  });

  it('only the seller: other students 403, anonymous 401; a photo of another listing is not found', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Mine' }), jpeg);
    const third = await createStudent(t);
    const photoId = listing.photos[0]!.id;
    for (const s of [other, third]) {
      expect((await addPhoto(s, listing.id)).statusCode).toBe(403);
      const del = await asStudent(t, s, {
        method: 'DELETE',
        url: `/listing/${listing.id}/photos/${photoId}`,
      });
      expect(del.statusCode).toBe(403);
      expect(del.json().message).toBe(MESSAGES.notYourListing);
      const order = await asStudent(t, s, {
        method: 'PUT',
        url: `/listing/${listing.id}/photos/order`,
        payload: { photoIds: [photoId] },
      });
      expect(order.statusCode).toBe(403);
    }
    expect((await addPhoto(null, listing.id)).statusCode).toBe(401);
    const mine = await postListing(t, other, validFields({ name: 'Other' }));
    const cross = await asStudent(t, other, {
      method: 'DELETE',
      url: `/listing/${mine.id}/photos/${photoId}`,
    });
    expect(cross.statusCode).toBe(404);
    expect(
      (await asStudent(t, seller, { method: 'DELETE', url: `/listing/${listing.id}/photos/abc` })).statusCode,
    ).toBe(400);
    // Two students and two photo listings (AVIF/WebP variants included): slow on a loaded machine.
  }, 90_000);

  it('a refused photo leaves no file behind (not a JPEG, nothing attached)', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Careful' }));
    const before = await uploads();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await addPhoto(seller, listing.id, png);
    expect(res.statusCode).toBe(400);
    const none = await asStudent(t, seller, {
      method: 'POST',
      url: `/listing/${listing.id}/photos`,
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(await uploads()).toEqual(before);
  });

  it('deleting a listing deletes every photo file', async () => {
    const form = multipart(validFields({ name: 'Gone soon' }), [{ data: jpeg }, { data: jpeg }]);
    await asStudent(t, seller, { method: 'POST', url: '/listing', ...form });
    const [gone] = (
      await asStudent(t, seller, { method: 'GET', url: '/listings/self?limit=1' })
    ).json() as Listing[];
    const names = gone!.photos.flatMap((p) => [fileOf(p.url), fileOf(p.thumbnailUrl)]);
    expect(names).toHaveLength(4);
    await asStudent(t, seller, { method: 'DELETE', url: `/listing/${gone!.id}` });
    await t.app.ctx.jobs.runDue();
    const files = await uploads();
    for (const n of names) expect(files).not.toContain(n);
  });
});
