/**
 * The orphan sweep on disk (media/orphans.ts): once a day, stored images no row names and last
 * written more than an hour ago are removed from DATA_DIR/uploads, with what crashed processes
 * left half-received or half-encoded; every image a row names (listing photos, their thumbnails
 * and variants, avatars, chat photos) stays, whichever campus it belongs to.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
import { multipartFile } from '../chat/testing.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';
import { incomingDir } from './incoming.js';
import { keyFromUrl } from './index.js';
import { IMAGE_KEY_COLUMNS } from './named-keys.js';
import {
  MEDIA_ORPHANS_JOB,
  ORPHAN_GRACE_MS,
  nextSweepAt,
  queueOrphanSweep,
  scheduleOrphanSweeps,
} from './orphans.js';
import { uploadsDir } from './storage.js';

const HOUR = 3_600_000;

describe.each(dialects)('the orphan sweep on disk (%s)', (dialect) => {
  let t: TestApp;
  let jpeg: Buffer;
  let uploads: string;
  let msu: number;
  let uw: number;

  beforeAll(async () => {
    // Three files per run, so a sweep of this folder takes several runs.
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES, orphanSweep: { pageSize: 3 } });
    jpeg = await makeJpeg(64, 48);
    uploads = uploadsDir(t.dataDir);
    msu = t.app.ctx.campuses.bySlug('msu')!.id;
    uw = t.app.ctx.campuses.bySlug('uw')!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const files = async (dir = uploads) => (await readdir(dir).catch(() => [] as string[])).sort();
  /** A file in `dir` last written at `at` (the app's clock). */
  const put = async (dir: string, name: string, at: number) => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, name), 'bytes');
    await utimes(path.join(dir, name), new Date(at), new Date(at));
    return name;
  };
  /** The sweeps filed and not yet run, then forgotten (so a later clock move does not run them). */
  const filedSweeps = async () => {
    const db = t.app.ctx.db.kysely;
    const rows = await db
      .selectFrom('jobs')
      .select(['campus_id', 'run_at'])
      .where('type', '=', MEDIA_ORPHANS_JOB)
      .where('failed_at', 'is', null)
      .execute();
    await db.deleteFrom('jobs').where('type', '=', MEDIA_ORPHANS_JOB).execute();
    return rows.map((r) => ({ campusId: Number(r.campus_id), runAt: Number(r.run_at) }));
  };
  /** A campus's sweep, run to its end (every page). */
  const sweep = async (campusId: number) => {
    await queueOrphanSweep(t.app.ctx, campusId);
    await t.app.ctx.jobs.runDue({ types: [MEDIA_ORPHANS_JOB] });
  };

  it('removes old files no row names and keeps every named one, of every campus', async () => {
    const now = t.app.ctx.clock();
    const old = now - ORPHAN_GRACE_MS - 60_000;
    // Named: a listing photo and its thumbnail (msu), with variants; an avatar of the other
    // campus; a chat photo uploaded and not sent yet (its upload's row lives 24 h).
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Kept lamp' }), jpeg);
    const photo = keyFromUrl(listing.imageUrl!)!;
    const thumb = keyFromUrl(listing.thumbnailUrl!)!;
    const stem = photo.replace('.jpg', '');
    const variants = [`${stem}-w320.avif`, `${stem}-w1280.webp`];
    for (const v of variants) await put(uploads, v, old);
    const uwStudent = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    const avatarRes = await asStudent(t, uwStudent, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(avatarRes.statusCode, avatarRes.body).toBe(200);
    const avatar = keyFromUrl((avatarRes.json() as Profile).avatarUrl!)!;
    const chatRes = await asStudent(t, seller, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'p.jpg', jpeg),
    });
    expect(chatRes.statusCode, chatRes.body).toBe(200);
    const chatPhoto = keyFromUrl(chatRes.body)!;
    // Everything named is old too: only the rows keep it.
    for (const name of await files()) await utimes(path.join(uploads, name), new Date(old), new Date(old));
    const named = await files();
    expect(named).toEqual(
      expect.arrayContaining([
        photo,
        thumb,
        ...variants,
        avatar,
        chatPhoto,
        chatPhoto.replace('.jpg', '-thumb.jpg'),
      ]),
    );

    // Orphans: an old photo with its thumbnail and a variant, and one written just now.
    const gone = randomUUID();
    const orphans = [
      await put(uploads, `${gone}.jpg`, old),
      await put(uploads, `${gone}-thumb.jpg`, old),
      await put(uploads, `${gone}-w640.avif`, old),
    ];
    const fresh = await put(uploads, `${randomUUID()}.jpg`, now - 60_000);
    // Not a name this app stores: never touched, however old.
    const foreign = await put(uploads, 'README.txt', old);
    // Left by a crashed process: a received upload and a half-made variant, old and fresh.
    const incoming = incomingDir(t.dataDir);
    const oldPart = await put(incoming, `${randomUUID()}.part`, old);
    const freshPart = await put(incoming, `${randomUUID()}.part`, now - 60_000);
    const temps = `${uploads}.tmp`;
    const oldTemp = await put(temps, `${randomUUID()}-w320.avif.123.${randomUUID()}`, old);

    await sweep(msu);
    expect(await files()).toEqual([...named, fresh, foreign].sort());
    expect(await files(incoming)).toEqual([freshPart]);
    expect(await files(temps)).toEqual([]);
    for (const name of [...orphans, oldPart, oldTemp]) expect(await files()).not.toContain(name);

    // The daily run filed the next one, tomorrow at 03:00 UTC.
    expect(await filedSweeps()).toEqual([{ campusId: msu, runAt: nextSweepAt(t.app.ctx.clock()) }]);
    expect(new Date(nextSweepAt(now)).toISOString()).toMatch(/T03:00:00\.000Z$/);

    // An hour on, the fresh one is old, and goes; the named ones still stay.
    t.clock.advance(ORPHAN_GRACE_MS);
    await sweep(msu);
    expect(await files()).toEqual([...named, foreign].sort());
    await filedSweeps();
  });

  it('is one job for the shared folder: filed under the default campus only', async () => {
    await scheduleOrphanSweeps(t.app.ctx);
    await scheduleOrphanSweeps(t.app.ctx);
    expect(await filedSweeps()).toEqual([{ campusId: msu, runAt: nextSweepAt(t.app.ctx.clock()) }]);

    // A run filed under another campus (left from bucket mode) sweeps nothing and files no next.
    const orphan = await put(uploads, `${randomUUID()}.jpg`, t.app.ctx.clock() - 2 * HOUR);
    await sweep(uw);
    expect(await files()).toContain(orphan);
    expect(await filedSweeps()).toEqual([]);
    await sweep(msu);
    expect(await files()).not.toContain(orphan);
    await filedSweeps();
  });

  it('removes what a crashed process left half-received when the next one starts', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-orphans-'));
    const incoming = incomingDir(dataDir);
    const left = await put(incoming, `${randomUUID()}.part`, Date.now() - 2 * HOUR);
    const receiving = await put(incoming, `${randomUUID()}.part`, Date.now());
    const next = await createTestApp({ dialect, jobWorker: false, dataDir });
    try {
      expect(await files(incoming)).toEqual([receiving]);
      expect(left).not.toBe(receiving);
    } finally {
      await next.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('knows every column that names a stored image', async () => {
    // A new table or column holding image keys must join IMAGE_KEY_COLUMNS, or the sweep would
    // take its images for orphans. The other `_key` columns name no image.
    const notImages = new Set(['notifications.dedupe_key']);
    const tables = await t.app.ctx.db.kysely.introspection.getTables();
    const keyColumns = tables
      .flatMap((table) => table.columns.map((c) => `${table.name}.${c.name}`))
      .filter((name) => name.endsWith('_key') && !notImages.has(name))
      .sort();
    expect(keyColumns).toEqual(IMAGE_KEY_COLUMNS.map(([table, column]) => `${table}.${column}`).sort());
  });
});
