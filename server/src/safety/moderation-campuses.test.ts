import {
  SAFETY_MESSAGES,
  type AuditEntry,
  type DataExport,
  type Listing,
  type ModReportGroup,
  type NotificationPage,
} from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUSES,
  TEST_CAMPUS_DOMAINS,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from '../listings/testing.js';
import { campusMorning } from '../notifications/testing.js';
import { call } from './testing.js';

/** Both test campuses, MSU with a moderator of its own too. */
const CAMPUSES = TEST_CAMPUSES.map((c) => (c.slug === 'msu' ? { ...c, moderators: ['mod@msu.edu'] } : c));
const UW = { slug: 'uw', name: 'University of Washington' };
const MSU = { slug: 'msu', name: 'MSU' };

/**
 * Moderation with two campuses (features.md §E): a campus's moderators see and act only on their
 * campus (another campus's report, listing or student answers like an unknown id); an operator
 * (OPERATOR_EMAILS) sees every campus's queue and audit log and acts on any campus.
 */
describe.each(dialects)('moderation across campuses (%s)', (dialect) => {
  let t: TestApp;
  let msuMod: Student;
  let uwMod: Student;
  let operator: Student;
  let msuSeller: Student;
  let uwSeller: Student;
  let msuReporter: Student;
  let uwReporter: Student;
  let msuListing: Listing;
  let uwListing: Listing;

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      env: { CAMPUSES: JSON.stringify(CAMPUSES), OPERATOR_EMAILS: 'op@msu.edu' },
    });
    // Daytime on both campuses: notification e-mail is not held for the night.
    t.clock.nowMs = campusMorning(Date.now());
    const uw = { domain: TEST_CAMPUS_DOMAINS.uw };
    msuMod = await createStudent(t, { email: 'mod@msu.edu', firstName: 'Mark' });
    uwMod = await createStudent(t, { email: 'mod@uw.edu', firstName: 'Uma' });
    operator = await createStudent(t, { email: 'op@msu.edu', firstName: 'Olive' });
    msuSeller = await createStudent(t, { firstName: 'Sam' });
    uwSeller = await createStudent(t, { ...uw, firstName: 'Una' });
    msuReporter = await createStudent(t);
    uwReporter = await createStudent(t, uw);
    msuListing = await postListing(t, msuSeller, validFields({ name: 'MSU iPhone' }));
    uwListing = await postListing(t, uwSeller, validFields({ name: 'UW iPhone' }));
    for (const [s, l] of [
      [msuReporter, msuListing],
      [uwReporter, uwListing],
    ] as const) {
      const res = await call(t, s, 'POST', '/reports', {
        targetType: 'LISTING',
        targetId: l.id,
        reason: 'SCAM',
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const queue = async (s: Student, status = 'OPEN') => {
    const res = await call(t, s, 'GET', `/mod/reports?status=${status}`);
    expect(res.statusCode).toBe(200);
    return res.json() as ModReportGroup[];
  };
  const audit = async (s: Student) => {
    const res = await call(t, s, 'GET', '/mod/audit?limit=100');
    expect(res.statusCode).toBe(200);
    return res.json() as AuditEntry[];
  };
  const targetsOf = (groups: ModReportGroup[]) => groups.map((g) => `${g.campus.slug}:${g.targetId}`);
  const seen = (res: { statusCode: number; json(): unknown }) => ({
    status: res.statusCode,
    body: res.json(),
  });

  it('each campus’s moderators see only their queue; an operator sees both, each naming its campus', async () => {
    expect(targetsOf(await queue(uwMod))).toEqual([`uw:${uwListing.id}`]);
    expect(targetsOf(await queue(msuMod))).toEqual([`msu:${msuListing.id}`]);
    const all = await queue(operator);
    expect(targetsOf(all).sort()).toEqual([`msu:${msuListing.id}`, `uw:${uwListing.id}`].sort());
    expect(all.find((g) => g.targetId === uwListing.id)).toMatchObject({
      campus: UW,
      content: { title: 'UW iPhone', owner: { id: uwSeller.id } },
      reports: [{ reporter: { id: uwReporter.id } }],
    });
    expect(all.find((g) => g.targetId === msuListing.id)?.campus).toEqual(MSU);
    for (const [s, moderator] of [
      [uwMod, true],
      [operator, true],
      [uwReporter, false],
    ] as const) {
      expect((await call(t, s, 'GET', '/users/me/safety')).json()).toEqual({ moderator });
    }
    const student = await call(t, uwReporter, 'GET', '/mod/reports');
    expect(seen(student)).toEqual({
      status: 403,
      body: expect.objectContaining({ message: SAFETY_MESSAGES.notModerator }),
    });
    expect((await t.app.inject({ method: 'GET', url: '/mod/reports' })).statusCode).toBe(401);
  });

  it('another campus’s report, listing or student answers a moderator exactly like an unknown id, and nothing changes', async () => {
    const [msuGroup] = await queue(msuMod);
    const msuReport = msuGroup?.reports[0]?.id as number;
    const pairs: Array<[string, string, Record<string, unknown> | undefined]> = [
      [`/mod/reports/${msuReport}/dismiss`, '/mod/reports/999999/dismiss', { reason: 'fine' }],
      [`/mod/listings/${msuListing.id}/remove`, '/mod/listings/999999/remove', { reason: 'Counterfeit' }],
      [`/mod/listings/${msuListing.id}/restore`, '/mod/listings/999999/restore', undefined],
      [`/mod/users/${msuSeller.id}/suspend`, '/mod/users/999999/suspend', { reason: 'Scamming' }],
      [`/mod/users/${msuSeller.id}/unsuspend`, '/mod/users/999999/unsuspend', undefined],
    ];
    for (const [other, unknown, body] of pairs) {
      const expected = seen(await call(t, uwMod, 'POST', unknown, body));
      expect(expected.status, unknown).toBe(404);
      expect(seen(await call(t, uwMod, 'POST', other, body)), other).toEqual(expected);
    }
    // The MSU report is still open, the listing still shows, the seller is still signed in.
    expect(targetsOf(await queue(msuMod))).toEqual([`msu:${msuListing.id}`]);
    expect((await call(t, msuReporter, 'GET', `/listing/${msuListing.id}`)).statusCode).toBe(200);
    expect((await call(t, msuSeller, 'GET', '/listings')).statusCode).toBe(200);
    expect(await audit(msuMod)).toEqual([]);
    // Their own campus's listing, they may act on.
    expect(
      (await call(t, uwMod, 'POST', `/mod/listings/${uwListing.id}/remove`, { reason: 'Counterfeit' }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, uwMod, 'POST', `/mod/listings/${uwListing.id}/restore`)).statusCode).toBe(200);
    expect((await call(t, uwReporter, 'GET', `/listing/${uwListing.id}`)).statusCode).toBe(200);
  });

  it('an operator acts on any campus, and the changes are that campus’s', async () => {
    const [msuGroup] = await queue(msuMod);
    const msuReport = msuGroup?.reports[0]?.id as number;
    // A campus-hidden write of another campus would be refused by PostgreSQL's row security.
    expect((await call(t, operator, 'POST', `/mod/reports/${msuReport}/dismiss`)).statusCode).toBe(200);
    expect(await queue(msuMod)).toEqual([]);

    const second = await postListing(t, uwSeller, validFields({ name: 'UW fake textbook' }));
    const removed = await call(t, operator, 'POST', `/mod/listings/${second.id}/remove`, {
      reason: 'Pirated',
    });
    expect(removed.statusCode).toBe(200);
    expect((await call(t, uwReporter, 'GET', `/listing/${second.id}`)).statusCode).toBe(404);
    await t.app.ctx.jobs.runDue({ types: ['notify.send'] });
    const centre = (await call(t, uwSeller, 'GET', '/notifications')).json() as NotificationPage;
    expect(centre.notifications[0]).toMatchObject({
      type: 'LISTING_REMOVED',
      title: SAFETY_MESSAGES.listingRemovedTitle('UW fake textbook'),
    });
    expect((await call(t, operator, 'POST', `/mod/listings/${second.id}/restore`)).statusCode).toBe(200);
    expect((await call(t, uwReporter, 'GET', `/listing/${second.id}`)).statusCode).toBe(200);

    const suspended = await call(t, operator, 'POST', `/mod/users/${uwReporter.id}/suspend`, {
      reason: 'Spamming reports',
      days: 3,
    });
    expect(suspended.statusCode).toBe(200);
    expect((await call(t, uwReporter, 'GET', '/listings')).statusCode).toBe(401);
    expect((await call(t, operator, 'POST', `/mod/users/${uwReporter.id}/unsuspend`)).statusCode).toBe(200);

    // Every row the operator wrote belongs to the target's campus.
    const rows = await t.app.ctx.db.kysely
      .selectFrom('mod_audit')
      .select(['campus_id', 'target_id', 'action'])
      .where('moderator_id', '=', operator.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.campus_id), r.action])).toEqual([
      [msuSeller.campusId, 'DISMISS'],
      [uwSeller.campusId, 'REMOVE_LISTING'],
      [uwSeller.campusId, 'RESTORE_LISTING'],
      [uwSeller.campusId, 'SUSPEND'],
      [uwSeller.campusId, 'UNSUSPEND'],
    ]);
  });

  it('each campus’s audit log holds its own entries (an operator’s too, by name); an operator reads every campus’s', async () => {
    const uwLog = await audit(uwMod);
    expect(uwLog.every((e) => e.campus.slug === 'uw')).toBe(true);
    expect(uwLog.map((e) => [e.moderator.firstName, e.action]).reverse()).toEqual([
      ['Uma', 'REMOVE_LISTING'],
      ['Uma', 'RESTORE_LISTING'],
      ['Olive', 'REMOVE_LISTING'],
      ['Olive', 'RESTORE_LISTING'],
      ['Olive', 'SUSPEND'],
      ['Olive', 'UNSUSPEND'],
    ]);
    const msuLog = await audit(msuMod);
    expect(msuLog.map((e) => [e.campus, e.moderator.firstName, e.action])).toEqual([
      [MSU, 'Olive', 'DISMISS'],
    ]);
    const all = await audit(operator);
    expect(all.map((e) => e.id)).toEqual([...uwLog, ...msuLog].map((e) => e.id).sort((a, b) => b - a));
    expect(new Set(all.map((e) => e.campus.slug))).toEqual(new Set(['msu', 'uw']));
    // Paged like before: the operator's pages run across campuses.
    const page = await call(t, operator, 'GET', '/mod/audit?limit=4');
    expect((page.json() as AuditEntry[]).map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    expect(String(page.headers.link)).toContain('cursor=');
    expect((await call(t, msuSeller, 'GET', '/mod/audit')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/mod/audit' })).statusCode).toBe(401);
  });

  it('an operator’s export holds their own campus’s audit rows only (the others are those campuses’ records)', async () => {
    const data = (await call(t, operator, 'GET', '/users/me/export')).json() as DataExport;
    expect(data.tables.mod_audit?.map((r) => [Number(r.campus_id), r.action])).toEqual([
      [operator.campusId, 'DISMISS'],
    ]);
  });

  it('decided reports stay in their campus’s history', async () => {
    expect(targetsOf(await queue(uwMod, 'DONE'))).toEqual([`uw:${uwListing.id}`]);
    expect(targetsOf(await queue(msuMod, 'DONE'))).toEqual([`msu:${msuListing.id}`]);
    expect(targetsOf(await queue(operator, 'DONE')).sort()).toEqual(
      [`msu:${msuListing.id}`, `uw:${uwListing.id}`].sort(),
    );
  });
});
