import type { NotificationPage } from '@campus/contract';
import { sql } from 'kysely';
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
import { multipart, postListing, validFields } from '../listings/testing.js';
import { campusMorning } from '../notifications/testing.js';

const MATCH_JOB = 'selling.match';

describe.each(dialects)('saved-search and wanted matching is a durable job (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let saver: Student;
  let wanter: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    seller = await createStudent(t);
    saver = await createStudent(t);
    wanter = await createStudent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.ctx.db.kysely;
  const matchJobs = async () =>
    (
      await db().selectFrom('jobs').select(['payload', 'attempts']).where('type', '=', MATCH_JOB).execute()
    ).map((j) => ({ ...(JSON.parse(j.payload) as { listingId: number }), attempts: Number(j.attempts) }));
  const notices = async (s: Student, listingId: number) =>
    (
      (await asStudent(t, s, { method: 'GET', url: '/notifications?limit=50' })).json() as NotificationPage
    ).notifications.filter((n) => n.link === `/single_listing/${listingId}`);

  it('the job exists exactly when the listing change committed', async () => {
    await t.app.ctx.jobs.runDue();
    const listing = await postListing(t, seller, validFields({ name: 'Canoe paddle', category: 'OTHER' }));
    expect(await matchJobs()).toEqual([{ listingId: listing.id, attempts: 0 }]);
    await t.app.ctx.jobs.runDue();
    expect(await matchJobs()).toEqual([]);

    // Something later in the same transaction fails: no listing, no edit, and no job either.
    let failing = true;
    t.app.ctx.domainEvents.inTransaction('listing.written', async () => {
      if (failing) throw new Error('disk full');
    });
    try {
      const form = multipart(validFields({ name: 'Never saved', category: 'OTHER' }));
      const create = await asStudent(t, seller, { method: 'POST', url: '/listing', ...form });
      expect(create.statusCode).toBe(500);
      const edit = await asStudent(t, seller, {
        method: 'PATCH',
        url: `/listing/${listing.id}`,
        payload: { name: 'Kayak paddle' },
      });
      expect(edit.statusCode).toBe(500);
    } finally {
      failing = false;
    }
    const names = await db()
      .selectFrom('listings')
      .select('name')
      .where('seller_id', '=', seller.id)
      .execute();
    expect(names.map((r) => r.name)).toEqual(['Canoe paddle']);
    expect(await matchJobs()).toEqual([]);

    // A committed edit enqueues one.
    const edit = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: { name: 'Kayak paddle' },
    });
    expect(edit.statusCode).toBe(200);
    expect(await matchJobs()).toEqual([{ listingId: listing.id, attempts: 0 }]);
    await t.app.ctx.jobs.runDue();
  });

  it('running the job notifies each saver and wanter once, however often it runs', async () => {
    await asStudent(t, saver, { method: 'POST', url: '/searches', payload: { query: 'tandem bicycle' } });
    await asStudent(t, wanter, {
      method: 'POST',
      url: '/wanted',
      payload: { title: 'Tandem bicycle', category: 'OTHER' },
    });
    const bike = await postListing(t, seller, validFields({ name: 'Tandem bicycle', category: 'OTHER' }));
    // Nothing yet: matching waits for the job.
    expect(await notices(saver, bike.id)).toEqual([]);
    await t.app.ctx.jobs.runDue();
    expect((await notices(saver, bike.id)).map((n) => n.type)).toEqual(['SAVED_SEARCH_MATCH']);
    expect((await notices(wanter, bike.id)).map((n) => n.type)).toEqual(['WANTED_MATCH']);

    // The same job again (a crash after its work, before its row was deleted), and an edit's job.
    await inCampus(seller.campusId, () => t.app.ctx.jobs.enqueue(db(), MATCH_JOB, { listingId: bike.id }));
    await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${bike.id}`,
      payload: { description: 'Two seats, new tyres, rides well.' },
    });
    await t.app.ctx.jobs.runDue();
    expect(await notices(saver, bike.id)).toHaveLength(1);
    expect(await notices(wanter, bike.id)).toHaveLength(1);
    expect(await matchJobs()).toEqual([]);
  });

  it('a failed match is retried until the savers are told', async () => {
    const late = await createStudent(t);
    await asStudent(t, late, { method: 'POST', url: '/searches', payload: { query: 'rowing machine' } });
    const machine = await postListing(t, seller, validFields({ name: 'Rowing machine', category: 'OTHER' }));
    // The database refuses the match record (a real failure, not a stand-in): the job fails.
    await sql`ALTER TABLE saved_search_matches RENAME TO saved_search_matches_away`.execute(db());
    try {
      await t.app.ctx.jobs.runDue();
    } finally {
      await sql`ALTER TABLE saved_search_matches_away RENAME TO saved_search_matches`.execute(db());
    }
    expect(await notices(late, machine.id)).toEqual([]);
    expect(await matchJobs()).toEqual([{ listingId: machine.id, attempts: 1 }]);
    // Not before its back-off…
    await t.app.ctx.jobs.runDue();
    expect(await notices(late, machine.id)).toEqual([]);
    // …then it runs again and the saver hears about it, once.
    t.clock.advance(5_000);
    await t.app.ctx.jobs.runDue();
    expect((await notices(late, machine.id)).map((n) => n.type)).toEqual(['SAVED_SEARCH_MATCH']);
    expect(await matchJobs()).toEqual([]);
  });
});
