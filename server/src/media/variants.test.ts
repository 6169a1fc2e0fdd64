import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Listing } from '@campus/contract';
import { variantSrcset } from '@campus/contract';
import { Migrator, sql, type Migration } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type TestApp,
  type TestDialect,
} from '../../test/helper.js';
import { createPgDatabase } from '../../test/pg-database.js';
import { inCampus } from '../db/campus-scope.js';
import { openDb, type Db } from '../db/connection.js';
import { accountsMigration } from '../db/migrations/001_accounts.js';
import { listingsMigration } from '../db/migrations/002_listings.js';
import { chatMigration } from '../db/migrations/003_chat.js';
import { hardeningMigration } from '../db/migrations/004_hardening.js';
import { dealsMigration } from '../db/migrations/005_deals.js';
import { sellingMigration } from '../db/migrations/006_selling.js';
import { safetyMigration } from '../db/migrations/007_safety.js';
import { notificationsMigration } from '../db/migrations/008_notifications.js';
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
    await queueVariantBackfill(t.app.ctx.db.kysely, t.clock.now(), t.app.ctx.campuses.default.id);
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
    // 009 runs on a database from before campuses (015 files its job under the first campus, with
    // every other row): it is checked on such a database.
    const old = await databaseBefore015(dialect);
    try {
      const k = old.db.kysely;
      const migration = mediaVariantsMigration(old.db);
      const backfills = () =>
        k.selectFrom('jobs').select('key').where('key', '=', MEDIA_BACKFILL_KEY).execute();
      await migration.up(k);
      expect(await backfills()).toEqual([]);
      await sql`insert into users (email, first_name, last_name, password_hash, verified, token_version, created_at)
        values ('old@msu.edu', 'Old', 'Seller', 'x', 1, 0, 0)`.execute(k);
      await sql`insert into listings (seller_id, name, description, category, price_cents, image_key, thumb_key, is_sold, created_at, updated_at)
        select id, 'Lamp', 'A lamp', 'OTHER', 500, 'a.jpg', 'a-thumb.jpg', 0, 0, 0 from users`.execute(k);
      await migration.down!(k);
      await migration.up(k);
      expect(await backfills()).toHaveLength(1);
    } finally {
      await old.close();
    }
  });

  it('the backfill is filed under the campus given or in scope, and refused outside any', async () => {
    const k = t.app.ctx.db.kysely;
    const campus = t.app.ctx.campuses.default.id;
    await expect(queueVariantBackfill(k, t.clock.now())).rejects.toThrow(/campus/i);
    await inCampus(campus, () => queueVariantBackfill(k, t.clock.now()));
    const [job] = await k
      .selectFrom('jobs')
      .select(['campus_id'])
      .where('key', '=', MEDIA_BACKFILL_KEY)
      .execute();
    expect(Number(job?.campus_id)).toBe(campus);
    while ((await t.app.ctx.jobs.runDue()) > 0);
  });
});

/** A fresh database migrated up to 008, as one that had never seen migration 009 nor campuses. */
async function databaseBefore015(dialect: TestDialect): Promise<{ db: Db; close(): Promise<void> }> {
  const migrations: Record<string, (db: Db) => Migration> = {
    '001_accounts': accountsMigration,
    '002_listings': listingsMigration,
    '003_chat': chatMigration,
    '004_hardening': hardeningMigration,
    '005_deals': dealsMigration,
    '006_selling': sellingMigration,
    '007_safety': safetyMigration,
    '008_notifications': notificationsMigration,
  };
  let db: Db;
  let cleanUp: () => Promise<void>;
  if (dialect === 'postgres') {
    const created = await createPgDatabase(process.env.TEST_DATABASE_URL as string, 'cm_test');
    db = openDb({ databaseUrl: created.url, dataDir: tmpdir() });
    cleanUp = created.drop;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'cm-009-'));
    db = openDb({ dataDir: dir });
    cleanUp = () => rm(dir, { recursive: true, force: true });
  }
  const provider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(db)])),
  };
  const { error } = await new Migrator({ db: db.kysely, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return {
    db,
    async close() {
      await db.close();
      await cleanUp();
    },
  };
}
