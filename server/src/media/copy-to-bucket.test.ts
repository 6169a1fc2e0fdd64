/**
 * Moving a deployment's photos from DATA_DIR/uploads into a bucket (npm run photos:to-bucket):
 * each file under the prefix its row says, so the same database started with S3_BUCKET shows every
 * photo, variant, avatar and chat photo it showed from disk.
 */
import type { ChatMessage, Listing, Profile } from '@campus/contract';
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
import { createListing, multipartFile, sendAs } from '../chat/testing.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';
import { parseBucketConfig } from './bucket-config.js';
import { BucketStorage } from './bucket-storage.js';
import { copyUploadsToBucket } from './copy-to-bucket.js';

describe.each(dialects)('copying the uploads folder into a bucket (%s)', (dialect) => {
  let s3: S3TestServer;
  let disk: TestApp;
  let bucket: TestApp | undefined;

  beforeAll(async () => {
    s3 = await S3TestServer.start();
    disk = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
  });
  afterAll(async () => {
    await bucket?.close();
    await disk?.close();
    await s3?.close();
  });

  it('puts every named file under its campus and visibility; the bucket-mode app shows them all', async () => {
    const jpeg = await makeJpeg(400, 300);
    const msuSeller = await createStudent(disk);
    const uwStudent = await createStudent(disk, { domain: TEST_CAMPUS_DOMAINS.uw });
    const buyer = await createStudent(disk);
    const listing = await postListing(disk, msuSeller, validFields({ name: 'Moved lamp' }), jpeg);
    const avatar = await asStudent(disk, uwStudent, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(avatar.statusCode).toBe(200);
    const chatListing = await createListing(disk, msuSeller.id);
    const upload = await asStudent(disk, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'p.jpg', jpeg),
    });
    const sent = await sendAs(disk, buyer.id, buyer.id, msuSeller.id, {
      content: '',
      url: upload.body,
      listingId: chatListing,
    });
    // The variants are made on disk and copied with their photo.
    await disk.app.ctx.jobs.runDue({ types: ['media.variants'] });

    const storage = await new BucketStorage(
      parseBucketConfig(s3.env).config!,
      (id) => disk.app.ctx.campuses.byId(id).slug,
    ).init();
    const copy = () => copyUploadsToBucket(disk.app.ctx.db.kysely, disk.dataDir, storage);
    const report = await copy();
    expect(report.missing).toEqual([]);

    const stem = (url: string) => url.slice('/uploads/'.length).replace('.jpg', '');
    const avatarUrl = (avatar.json() as Profile).avatarUrl!;
    expect(await s3.keys(`msu/photos/${stem(listing.imageUrl!)}`)).toHaveLength(8);
    expect(await s3.keys(`uw/photos/${stem(avatarUrl)}`)).toHaveLength(8);
    expect(await s3.keys(`msu/chat/${stem(upload.body)}`)).toHaveLength(2);
    // Each file once (the cover is named by two tables), and a repeat puts the same files again.
    const copied = await s3.keys();
    expect(copied).toHaveLength(report.copied);
    expect((await copy()).copied).toBe(report.copied);
    expect(await s3.keys()).toEqual(copied);
    storage.close();

    // The same database, started with the bucket.
    bucket = await createTestApp({
      dialect,
      dataDir: disk.dataDir,
      databaseUrl: disk.databaseUrl,
      jobWorker: false,
      env: { ...TWO_CAMPUSES, ...s3.env },
    });
    const seen = (
      await asStudent(bucket, msuSeller, { method: 'GET', url: `/listing/${listing.id}` })
    ).json() as Listing;
    expect(seen.imageUrl).toBe(`${s3.publicBaseUrl}/msu/photos/${stem(listing.imageUrl!)}.jpg`);
    expect((await fetch(seen.imageUrl!)).status).toBe(200);
    expect((await fetch(seen.thumbnailUrl!)).status).toBe(200);
    const v = seen.imageVariants!;
    expect((await fetch(v.url.replace('{width}', '640').replace('{format}', 'avif'))).status).toBe(200);
    const profile = (
      await asStudent(bucket, uwStudent, { method: 'GET', url: `/users/${uwStudent.id}/profile` })
    ).json() as Profile;
    expect((await fetch(profile.avatarUrl!)).status).toBe(200);
    const history = (
      await asStudent(bucket, msuSeller, { method: 'GET', url: `/api/chats/${sent.roomId}` })
    ).json() as ChatMessage[];
    const photo = history.find((m) => m.id === sent.id)!.url!;
    expect(new URL(photo).pathname).toBe(`/${s3.bucket}/msu/chat/${stem(upload.body)}.jpg`);
    expect((await fetch(photo)).status).toBe(200);
  });
});
