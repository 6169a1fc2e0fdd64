/**
 * Photos in object storage (features.md §F) against a real S3-protocol server (s3rver): listing
 * photos, their thumbnails and variants, and avatars live in the bucket under their campus's
 * prefix and are fetched from PHOTO_BASE_URL; every deletion path removes them; nothing is written
 * to DATA_DIR/uploads.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Listing, Profile } from '@campus/contract';
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
import { inCampus } from '../db/campus-scope.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';
import { queueVariantBackfill, storeJpeg, VARIANT_WIDTHS } from './index.js';

/** The object key of a URL under PHOTO_BASE_URL. */
function keyOf(s3: S3TestServer, url: string): string {
  expect(url.startsWith(`${s3.publicBaseUrl}/`)).toBe(true);
  return url.slice(s3.publicBaseUrl.length + 1);
}

/** What a browser gets from a URL. */
async function get(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    bytes: res.ok ? (await res.arrayBuffer()).byteLength : 0,
  };
}

/** Every variant URL of a photo, from the API's template. */
function variantUrls(listing: Pick<Listing, 'imageVariants'>): string[] {
  const v = listing.imageVariants!;
  return v.widths.flatMap((w) =>
    v.formats.map((f) => v.url.replace('{width}', String(w)).replace('{format}', f)),
  );
}

describe.each(dialects)('photos in a bucket (%s)', (dialect) => {
  let s3: S3TestServer;
  let t: TestApp;
  let jpeg: Buffer;
  let webRoot: string;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    // A web app shell, so shared-listing pages get their preview tags.
    webRoot = await mkdtemp(path.join(tmpdir(), 'cm-bucket-web-'));
    await mkdir(path.join(webRoot, 'dist'));
    await writeFile(
      path.join(webRoot, 'dist', 'index.html'),
      '<!doctype html><html><head><title>Campus Market</title></head><body><div id="root"></div></body></html>',
    );
    // Jobs are driven with runDue(), so the moment objects appear and go is visible.
    t = await createTestApp({
      dialect,
      jobWorker: false,
      webDist: path.join(webRoot, 'dist'),
      env: {
        ...TWO_CAMPUSES,
        ...s3.env,
        PUBLIC_URL: 'https://market.example',
        OPERATOR_EMAILS: 'op@msu.edu',
      },
    });
    jpeg = await makeJpeg(700, 500);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  const mine = async (s: Student) =>
    (await asStudent(t, s, { method: 'GET', url: '/listings/self' })).json() as Listing[];

  it('stores a listing photo, its thumbnail and variants under the campus prefix, served from PHOTO_BASE_URL', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Bucket lamp' }), jpeg);
    const image = keyOf(s3, listing.imageUrl!);
    const thumb = keyOf(s3, listing.thumbnailUrl!);
    expect(image).toMatch(/^msu\/photos\/[0-9a-f-]{36}\.jpg$/);
    expect(thumb).toBe(image.replace('.jpg', '-thumb.jpg'));
    expect(listing.photos.map((p) => p.url)).toEqual([listing.imageUrl]);
    expect(await get(listing.imageUrl!)).toMatchObject({
      status: 200,
      type: 'image/jpeg',
      cache: 'public, max-age=31536000, immutable',
    });
    expect((await get(listing.thumbnailUrl!)).status).toBe(200);
    // Nothing on the app's disk: the uploads folder is not even made.
    expect(await readdir(path.join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);

    // Variants: made by the job right after the upload, then fetched like the photo.
    expect(listing.imageVariants!.url.startsWith(`${s3.publicBaseUrl}/msu/photos/`)).toBe(true);
    expect((await get(variantUrls(listing)[0]!)).status).toBe(404);
    await t.app.ctx.jobs.runDue();
    for (const url of variantUrls(listing)) {
      const got = await get(url);
      expect([url, got.status, got.type, got.cache]).toEqual([
        url,
        200,
        url.endsWith('.avif') ? 'image/avif' : 'image/webp',
        'public, max-age=31536000, immutable',
      ]);
    }
    const stem = image.replace('.jpg', '');
    expect(await s3.keys(stem)).toEqual(
      [image, thumb, ...VARIANT_WIDTHS.flatMap((w) => [`${stem}-w${w}.avif`, `${stem}-w${w}.webp`])].sort(),
    );
  });

  it("keeps each campus's photos under its own prefix", async () => {
    const uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    const listing = await postListing(t, uw, validFields({ name: 'Husky mug' }), jpeg);
    expect(keyOf(s3, listing.imageUrl!)).toMatch(/^uw\/photos\/[0-9a-f-]{36}\.jpg$/);
    expect((await get(listing.imageUrl!)).status).toBe(200);
  });

  it("an operator's moderation queue shows each campus's listing thumbnail from that campus's prefix", async () => {
    const uw = { domain: TEST_CAMPUS_DOMAINS.uw };
    const seller = await createStudent(t, uw);
    const reporter = await createStudent(t, uw);
    const operator = await createStudent(t, { email: 'op@msu.edu' });
    const listing = await postListing(t, seller, validFields({ name: 'Reported lamp' }), jpeg);
    const report = await asStudent(t, reporter, {
      method: 'POST',
      url: '/reports',
      payload: { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM' },
    });
    expect(report.statusCode, report.body).toBe(201);
    const queue = await asStudent(t, operator, { method: 'GET', url: '/mod/reports' });
    expect(queue.statusCode, queue.body).toBe(200);
    const group = (queue.json() as Array<{ targetId: number; content: { imageUrl: string | null } }>).find(
      (g) => g.targetId === listing.id,
    );
    expect(group!.content.imageUrl).toBe(listing.thumbnailUrl);
    expect(keyOf(s3, listing.thumbnailUrl!)).toMatch(/^uw\/photos\//);
  });

  it('removes the objects of a removed photo and of a deleted listing', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Shelf' }), jpeg);
    const added = await asStudent(t, seller, {
      method: 'POST',
      url: `/listing/${listing.id}/photos`,
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(added.statusCode, added.body).toBe(201);
    const withTwo = added.json() as Listing;
    expect(withTwo.photos).toHaveLength(2);
    await t.app.ctx.jobs.runDue();
    const [first, second] = withTwo.photos.map((p) => keyOf(s3, p.url).replace('.jpg', ''));
    expect((await s3.keys(first)).length).toBe(8);
    expect((await s3.keys(second)).length).toBe(8);

    // Removing the cover: its objects go (with the variants), the other becomes the cover.
    const removed = await asStudent(t, seller, {
      method: 'DELETE',
      url: `/listing/${listing.id}/photos/${withTwo.photos[0]!.id}`,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys(first)).toEqual([]);
    expect((await mine(seller))[0]!.imageUrl).toBe(withTwo.photos[1]!.url);

    // Deleting the listing: the rest goes.
    const deleted = await asStudent(t, seller, { method: 'DELETE', url: `/listing/${listing.id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys(second)).toEqual([]);
  });

  it('stores an avatar in the bucket, removes the replaced one, and removes it and the listings with the account', async () => {
    const me = await createStudent(t);
    const setAvatar = async () => {
      const res = await asStudent(t, me, {
        method: 'POST',
        url: '/users/me/avatar',
        ...multipart({}, [{ data: jpeg }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Profile;
    };
    const first = await setAvatar();
    const firstKey = keyOf(s3, first.avatarUrl!).replace('.jpg', '');
    expect(firstKey).toMatch(/^msu\/photos\//);
    expect(first.avatarVariants!.url.startsWith(`${s3.publicBaseUrl}/msu/photos/`)).toBe(true);
    expect(await get(first.avatarUrl!)).toMatchObject({ status: 200, type: 'image/jpeg' });
    await t.app.ctx.jobs.runDue();
    expect((await s3.keys(firstKey)).length).toBe(8);

    const second = await setAvatar();
    const secondKey = keyOf(s3, second.avatarUrl!).replace('.jpg', '');
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys(firstKey)).toEqual([]);
    expect((await s3.keys(secondKey)).length).toBe(8);

    const listing = await postListing(t, me, validFields({ name: 'Leaving lamp' }), jpeg);
    const listingKey = keyOf(s3, listing.imageUrl!).replace('.jpg', '');
    await t.app.ctx.jobs.runDue();
    expect((await s3.keys(listingKey)).length).toBe(8);

    const gone = await asStudent(t, me, {
      method: 'DELETE',
      url: '/users/me',
      payload: { password: me.password },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys(secondKey)).toEqual([]);
    expect(await s3.keys(listingKey)).toEqual([]);
  });

  it('the variant backfill makes the missing variants of photos stored without them, in every campus', async () => {
    const msu = t.app.ctx.campuses.bySlug('msu')!.id;
    const uw = t.app.ctx.campuses.bySlug('uw')!.id;
    // Stored with no job queue (as the demo seed does): no variants yet.
    const storage = { config: t.app.ctx.config, photoStorage: t.app.ctx.photoStorage };
    const a = await inCampus(msu, () => storeJpeg(storage, jpeg));
    const b = await inCampus(uw, () => storeJpeg(storage, jpeg));
    const stem = (url: string) => keyOf(s3, url).replace('.jpg', '');
    expect(await s3.keys(stem(a.imageUrl))).toHaveLength(2);
    expect(await s3.keys(stem(b.imageUrl))).toHaveLength(2);
    await queueVariantBackfill(t.app.ctx.db.kysely, t.clock.now(), msu);
    await t.app.ctx.jobs.runDue();
    expect(await s3.keys(stem(a.imageUrl))).toHaveLength(8);
    expect(await s3.keys(stem(b.imageUrl))).toHaveLength(8);
  });

  it("a shared listing's preview names the cover photo in the bucket, as it is", async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Shared lamp' }), jpeg);
    const res = await t.app.inject({
      method: 'GET',
      url: `/single_listing/${listing.id}`,
      headers: { accept: '*/*', 'user-agent': 'facebookexternalhit/1.1' },
    });
    expect(res.statusCode).toBe(200);
    const og = /<meta property="og:image" content="([^"]*)">/.exec(res.body)?.[1];
    expect(og).toBe(listing.imageUrl);
    expect((await get(og!)).status).toBe(200);
  });

  it('names PHOTO_BASE_URL and the bucket in the img-src of the Content-Security-Policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const imgSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((d) => d.startsWith('img-src'));
    expect(imgSrc).toBe(`img-src 'self' data: blob: ${new URL(s3.publicBaseUrl).origin}`);
  });
});
