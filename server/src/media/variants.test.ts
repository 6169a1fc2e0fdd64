import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Listing } from '@campus/contract';
import { variantSrcset } from '@campus/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { makeJpeg, multipart, validFields } from '../listings/testing.js';
import { mediaVariantsMigration } from '../db/migrations/009_media_variants.js';
import { storeJpeg } from './index.js';
import { MEDIA_BACKFILL_JOB, MEDIA_BACKFILL_KEY, queueVariantBackfill } from './jobs.js';
import { photosMissingVariants, variantKeys } from './variants.js';

describe.each(dialects)('responsive photo variants (%s)', (dialect) => {
  let t: TestApp;
  const uploads = () => path.join(t.dataDir, 'uploads');
  const files = async () => readdir(uploads()).catch(() => [] as string[]);

  beforeAll(async () => {
    // Jobs are driven with runDue(), so each step is visible.
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('an upload answers at once with its variants described; a job makes them; the API serves them', async () => {
    const seller = await createStudent(t);
    const res = await asStudent(t, seller, {
      method: 'POST',
      url: '/listing',
      ...multipart(validFields(), [{ data: await makeJpeg(1000, 750) }]),
    });
    expect(res.statusCode).toBe(201);
    const [listing] = (
      await asStudent(t, seller, { method: 'GET', url: '/listings/self' })
    ).json() as Listing[];
    const key = listing!.imageUrl!.replace('/uploads/', '');
    expect(listing!.imageVariants).toEqual({
      url: `/uploads/${key.replace('.jpg', '')}-w{width}.{format}`,
      widths: [320, 640, 1280],
      formats: ['avif', 'webp'],
    });
    expect(listing!.thumbnailUrl).toMatch(/-thumb\.jpg$/);

    expect(await t.app.ctx.jobs.runDue()).toBeGreaterThanOrEqual(1);
    expect(await files()).toEqual(expect.arrayContaining(variantKeys(key)));

    const avif = variantSrcset(listing!.imageVariants!, 'avif').split(', ');
    expect(avif).toHaveLength(3);
    for (const [i, entry] of avif.entries()) {
      const [url, descriptor] = entry.split(' ');
      const served = await t.app.inject({ method: 'GET', url: url! });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/avif');
      expect(served.headers['cache-control']).toContain('immutable');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.format).toBe('heif');
      // The w descriptor is the file's real width; the aspect ratio is the photo's.
      expect(`${meta.width}w`).toBe(descriptor);
      expect(meta.width).toBe([320, 640, 1280][i]);
      expect(meta.height).toBe(Math.round((meta.width! * 750) / 1000));
    }
    const webp = await t.app.inject({
      method: 'GET',
      url: variantSrcset(listing!.imageVariants!, 'webp').split(' ')[0]!,
    });
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).format).toBe('webp');

    // Deleting the listing deletes the photo, its thumbnail and every variant.
    const del = await asStudent(t, seller, { method: 'DELETE', url: `/listing/${listing!.id}` });
    expect(del.statusCode).toBeLessThan(300);
    // By the job queued with the row's delete.
    await t.app.ctx.jobs.runDue();
    expect(await files()).toEqual([]);
  });

  it('a variant asked for before its job ran is made on the spot; unknown names stay 404', async () => {
    // The demo seed stores photos without a job queue.
    const stored = await storeJpeg({ config: t.app.ctx.config }, await makeJpeg(900, 600));
    const url = `/uploads/${stored.imageKey.replace('.jpg', '')}-w640.webp`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(640);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/uploads/00000000-0000-4000-8000-000000000000-w640.webp',
    });
    expect(missing.statusCode).toBe(404);
    for (const bad of ['-w641.webp', '-w640.png', '-thumb-w640.webp']) {
      const r = await t.app.inject({
        method: 'GET',
        url: `/uploads/${stored.imageKey.replace('.jpg', '')}${bad}`,
      });
      expect(r.statusCode).toBe(404);
    }
    await t.app.ctx.jobs.runDue();
  });

  it('the one-off backfill makes the variants of every older photo, in short batches', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      keys.push((await storeJpeg({ config: t.app.ctx.config }, await makeJpeg(400 + i, 300))).imageKey);
    }
    expect((await photosMissingVariants(uploads(), '', 100)).keys).toEqual(expect.arrayContaining(keys));
    await queueVariantBackfill(t.app.ctx.db.kysely, t.clock.now());
    // The first batch, then the follow-up job it queued for the rest.
    let ran = 0;
    for (let n = await t.app.ctx.jobs.runDue(); n > 0; n = await t.app.ctx.jobs.runDue()) ran += n;
    expect(ran).toBeGreaterThanOrEqual(2);
    expect((await photosMissingVariants(uploads(), '', 100)).keys).toEqual([]);
    const present = new Set(await files());
    for (const key of keys) for (const v of variantKeys(key)) expect(present.has(v)).toBe(true);
    const left = await t.app.ctx.db.kysely.selectFrom('jobs').select('type').execute();
    expect(left.filter((j) => j.type === MEDIA_BACKFILL_JOB)).toEqual([]);
  });

  it('migration 009 queues the backfill only where listings with photos exist', async () => {
    const k = t.app.ctx.db.kysely;
    const migration = mediaVariantsMigration(t.app.ctx.db);
    await migration.down!(k);
    await k.deleteFrom('listings').execute();
    await migration.up(k);
    expect(await k.selectFrom('jobs').select('key').where('key', '=', MEDIA_BACKFILL_KEY).execute()).toEqual(
      [],
    );
    const seller = await createStudent(t);
    await asStudent(t, seller, {
      method: 'POST',
      url: '/listing',
      ...multipart(validFields(), [{ data: await makeJpeg(300, 200) }]),
    });
    await migration.up(k);
    expect(
      await k.selectFrom('jobs').select('key').where('key', '=', MEDIA_BACKFILL_KEY).execute(),
    ).toHaveLength(1);
    while ((await t.app.ctx.jobs.runDue()) > 0);
  });
});
