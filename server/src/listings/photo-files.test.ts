import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, MESSAGES, type Listing, type Profile } from '@campus/contract';
import pg from 'pg';
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

/**
 * Photo files follow their rows: a photo is recorded before its files are written, and a deleted
 * photo's files are removed by a job queued in the delete's transaction. So no file is ever served
 * that no row knows about, whatever moment a process dies at.
 */
describe.each(dialects)('photo files follow their rows (%s)', (dialect) => {
  let t: TestApp;
  let jpeg: Buffer;
  const uploads = () => path.join(t.dataDir, 'uploads');
  const files = async () => (await readdir(uploads()).catch(() => [] as string[])).sort();
  const fileOf = (url: string) => url.replace('/uploads/', '');
  const served = async (name: string) =>
    (await t.app.inject({ method: 'GET', url: `/uploads/${name}` })).statusCode;
  const mine = async (s: Student) =>
    (await asStudent(t, s, { method: 'GET', url: '/listings/self' })).json() as Listing[];
  const removeJobs = async () =>
    t.app.ctx.db.kysely.selectFrom('jobs').select('payload').where('type', '=', 'media.remove').execute();

  /** A real storage fault: the uploads folder is replaced by a plain file, so no photo can be written. */
  async function withUnwritableUploads<T>(run: () => Promise<T>): Promise<T> {
    const aside = `${uploads()}.aside`;
    await rename(uploads(), aside);
    await writeFile(uploads(), 'not a folder');
    try {
      return await run();
    } finally {
      await rm(uploads(), { force: true });
      await rename(aside, uploads());
    }
  }

  beforeAll(async () => {
    // Jobs are driven with runDue(), so the moment the files go is visible.
    t = await createTestApp({ dialect, jobWorker: false });
    jpeg = await makeJpeg(64, 48);
    await mkdir(uploads(), { recursive: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a listing whose photos cannot be written is taken back: 503, no listing, no stray file', async () => {
    const seller = await createStudent(t);
    await t.app.ctx.jobs.runDue();
    const before = await files();
    const res = await withUnwritableUploads(() =>
      asStudent(t, seller, {
        method: 'POST',
        url: '/listing',
        ...multipart(validFields({ name: 'Unsaved lamp' }), [{ data: jpeg }, { data: jpeg }]),
      }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: MESSAGES.imageStoreFailed, code: ERROR_CODES.internal });
    expect(await mine(seller)).toEqual([]);
    await t.app.ctx.jobs.runDue();
    expect(await files()).toEqual(before);
    // Storage back: the same form goes through.
    const again = await postListing(t, seller, validFields({ name: 'Unsaved lamp' }), jpeg);
    expect(await served(fileOf(again.imageUrl!))).toBe(200);
  });

  it('an added photo or an avatar that cannot be written leaves the listing and the profile as they were', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Desk' }), jpeg);
    const avatar = await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    const oldAvatar = (avatar.json() as Profile).avatarUrl!;
    await t.app.ctx.jobs.runDue();
    const before = await files();
    const [added, replaced] = await withUnwritableUploads(async () => [
      await asStudent(t, seller, {
        method: 'POST',
        url: `/listing/${listing.id}/photos`,
        ...multipart({}, [{ data: jpeg }]),
      }),
      await asStudent(t, seller, {
        method: 'POST',
        url: '/users/me/avatar',
        ...multipart({}, [{ data: jpeg }]),
      }),
    ]);
    expect(added.statusCode).toBe(503);
    expect(added.json().message).toBe(MESSAGES.imageStoreFailed);
    expect(replaced.statusCode).toBe(503);
    const [now] = await mine(seller);
    expect(now!.photos.map((p) => p.url)).toEqual(listing.photos.map((p) => p.url));
    const profile = (
      await asStudent(t, seller, { method: 'GET', url: `/users/${seller.id}/profile` })
    ).json() as Profile;
    expect(profile.avatarUrl).toBe(oldAvatar);
    await t.app.ctx.jobs.runDue();
    expect(await files()).toEqual(before);
    expect(await served(fileOf(oldAvatar))).toBe(200);
  });

  it('a deleted photo, listing or replaced avatar keeps no file once the job queued with the delete ran', async () => {
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Bookshelf' }), jpeg);
    const second = (
      await asStudent(t, seller, {
        method: 'POST',
        url: `/listing/${listing.id}/photos`,
        ...multipart({}, [{ data: jpeg }]),
      })
    ).json() as Listing;
    const [cover, extra] = second.photos;
    const first = (
      await asStudent(t, seller, {
        method: 'POST',
        url: '/users/me/avatar',
        ...multipart({}, [{ data: jpeg }]),
      })
    ).json() as Profile;
    await t.app.ctx.jobs.runDue();

    const del = await asStudent(t, seller, {
      method: 'DELETE',
      url: `/listing/${listing.id}/photos/${extra!.id}`,
    });
    expect(del.statusCode).toBe(200);
    // The row is gone and the removal is recorded durably (a crash now still removes the files).
    expect(JSON.stringify(await removeJobs())).toContain(fileOf(extra!.url));
    await t.app.ctx.jobs.runDue();
    for (const name of [fileOf(extra!.url), fileOf(extra!.thumbnailUrl)]) {
      expect(await files()).not.toContain(name);
      expect(await served(name)).toBe(404);
    }
    expect(await served(fileOf(cover!.url))).toBe(200);

    await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect((await asStudent(t, seller, { method: 'DELETE', url: `/listing/${listing.id}` })).statusCode).toBe(
      200,
    );
    expect(JSON.stringify(await removeJobs())).toContain(fileOf(cover!.url));
    await t.app.ctx.jobs.runDue();
    const left = await files();
    for (const name of [cover!.url, cover!.thumbnailUrl, first.avatarUrl!].map(fileOf)) {
      expect(left).not.toContain(name);
      expect(await served(name)).toBe(404);
    }
    // Every variant went with its photo.
    const id = fileOf(cover!.url).replace('.jpg', '');
    expect(left.filter((f) => f.startsWith(id))).toEqual([]);
  });

  // PostgreSQL only: a lock held by another connection makes the row wait, and meanwhile the
  // uploads folder shows what a crash at that moment would leave. (SQLite's driver is synchronous:
  // a held lock there stalls the whole process, so the moment cannot be observed from inside.)
  it.runIf(dialect === 'postgres')(
    'while the row waits, no file of the new photo exists to be served',
    async () => {
      const seller = await createStudent(t);
      const listing = await postListing(t, seller, validFields({ name: 'Chair' }), jpeg);
      await t.app.ctx.jobs.runDue();
      const before = await files();
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from listings where id = $1 for update', [listing.id]);
        const pending = asStudent(t, seller, {
          method: 'POST',
          url: `/listing/${listing.id}/photos`,
          ...multipart({}, [{ data: await makeJpeg(1200, 900) }]),
        });
        // The photo is decoded and re-encoded before its transaction starts; once that waits on
        // the lock, whatever a crash would leave behind is on disk already.
        for (;;) {
          const { rows } = await holder.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
          );
          if (Number(rows[0]?.n) > 0) break;
          await new Promise((r) => setImmediate(r));
        }
        expect(await files()).toEqual(before);
        await holder.query('commit');
        const res = await pending;
        expect(res.statusCode).toBe(201);
      } finally {
        await holder.end();
      }
      const added = (await mine(seller))[0]!.photos[1]!;
      expect(await served(fileOf(added.url))).toBe(200);
    },
  );
});
