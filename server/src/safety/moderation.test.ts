/**
 * Moderation (features.md §C): the /mod routes for moderators only, the queue of open reports,
 * restore, dismiss, remove with its e-mail, suspension and the append-only audit log. The listing
 * starts hidden by three reports, with a reported chat message beside it.
 */
import {
  MESSAGES,
  SAFETY_MESSAGES,
  type AuditEntry,
  type Listing,
  type ModReportGroup,
  type NotificationPage,
} from '@campus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, searchEngines, type Student, type TestApp } from '../../test/helper.js';
import { call, insertChatMessage, reportingCampus, visibleTo } from './testing.js';

describe.each(searchEngines)('moderation ($name)', ({ dialect, env }) => {
  let t: TestApp;
  let mod: Student;
  let seller: Student;
  let r1: Student;
  let r2: Student;
  let r3: Student;
  let listing: Listing;

  const report = (s: Student, body: Record<string, unknown>) => call(t, s, 'POST', '/reports', body);

  beforeAll(async () => {
    ({ t, mod, seller, r1, r2, r3, listing } = await reportingCampus(dialect, env));
    const message = await insertChatMessage(t, seller, r2, listing.id, 'Pay by Zelle first');
    await report(r2, {
      targetType: 'MESSAGE',
      targetId: message,
      reason: 'SCAM',
      details: 'asked for Zelle',
    });
    // Three reporters: the listing is hidden from browse and search until a moderator decides.
    for (const [s, reason] of [
      [r1, 'SCAM'],
      [r2, 'MISLEADING'],
      [r3, 'SCAM'],
    ] as const)
      await report(s, { targetType: 'LISTING', targetId: listing.id, reason });
  });
  afterAll(() => t.close());

  const routes = (listingId: number, userId: number, reportId: number) =>
    [
      ['GET', '/mod/reports'],
      ['GET', '/mod/reports?status=DONE'],
      ['GET', '/mod/audit'],
      ['POST', `/mod/reports/${reportId}/dismiss`],
      ['POST', `/mod/listings/${listingId}/remove`, { reason: 'x' }],
      ['POST', `/mod/listings/${listingId}/restore`],
      ['POST', `/mod/users/${userId}/suspend`, { reason: 'x' }],
      ['POST', `/mod/users/${userId}/unsuspend`],
    ] as const;

  it('every route is 401 anonymous and 403 for a student, and changes nothing', async () => {
    for (const [method, url, body] of routes(listing.id, seller.id, 1)) {
      const anon = await t.app.inject({ method, url, ...(body ? { payload: body } : {}) });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      const student = await call(t, r1, method, url, body);
      expect(student.statusCode, `${method} ${url}`).toBe(403);
      expect(student.json().message).toBe(SAFETY_MESSAGES.notModerator);
    }
    expect((await call(t, r1, 'GET', '/users/me/safety')).json()).toEqual({ moderator: false });
    expect((await call(t, mod, 'GET', '/users/me/safety')).json()).toEqual({ moderator: true });
    expect(await visibleTo(t, r1, listing.id)).toMatchObject({ browse: false });
  });

  it('the queue groups open reports by target with the content and every reason', async () => {
    const res = await call(t, mod, 'GET', '/mod/reports');
    expect(res.statusCode).toBe(200);
    const groups = res.json() as ModReportGroup[];
    const group = groups.find((g) => g.targetType === 'LISTING' && g.targetId === listing.id);
    expect(group?.content).toMatchObject({
      title: 'Too good to be true iPhone',
      state: 'REPORTED',
      owner: { id: seller.id },
    });
    expect(group?.reports.map((r) => r.reason).sort()).toEqual(['MISLEADING', 'SCAM', 'SCAM']);
    expect(group?.reports.map((r) => r.reporter.id).sort()).toEqual([r1.id, r2.id, r3.id].sort());
    const message = groups.find((g) => g.targetType === 'MESSAGE');
    expect(message?.content.body).toBe('Pay by Zelle first');
    // Paging: one group per page, with a Link to the next.
    const page1 = await call(t, mod, 'GET', '/mod/reports?limit=1');
    expect((page1.json() as ModReportGroup[]).length).toBe(1);
    const link = String(page1.headers.link);
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    const page2 = (await call(t, mod, 'GET', next as string)).json() as ModReportGroup[];
    const key = (g: ModReportGroup | undefined) => `${g?.targetType}:${g?.targetId}`;
    expect(key(page2[0])).not.toBe(key((page1.json() as ModReportGroup[])[0]));
    expect((await call(t, mod, 'GET', '/mod/reports?status=NOPE')).statusCode).toBe(400);
    expect((await call(t, mod, 'GET', '/mod/reports?limit=0')).statusCode).toBe(400);
  });

  it('restore shows a report-hidden listing again and closes its reports', async () => {
    const res = await call(t, mod, 'POST', `/mod/listings/${listing.id}/restore`, {
      reason: 'Checked: real phone, fair price',
    });
    expect(res.statusCode).toBe(200);
    expect(await visibleTo(t, r1, listing.id)).toEqual({
      browse: true,
      search: true,
      filters: true,
      detail: 200,
    });
    expect((await call(t, mod, 'POST', `/mod/listings/${listing.id}/restore`)).statusCode).toBe(409);
    const done = (await call(t, mod, 'GET', '/mod/reports?status=DONE')).json() as ModReportGroup[];
    const group = done.find((g) => g.targetType === 'LISTING' && g.targetId === listing.id);
    expect(group?.reports.every((r) => r.status === 'DONE' && r.outcome === 'RESTORED')).toBe(true);
    // Closed reports free the reporter to report again.
    expect(
      (await report(r1, { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM' })).statusCode,
    ).toBe(201);
  });

  it('dismiss closes every open report of the target', async () => {
    const open = (await call(t, mod, 'GET', '/mod/reports')).json() as ModReportGroup[];
    const group = open.find((g) => g.targetType === 'LISTING' && g.targetId === listing.id);
    const id = group?.reports[0]?.id as number;
    expect(
      (await call(t, mod, 'POST', `/mod/reports/${id}/dismiss`, { reason: 'Not a scam' })).statusCode,
    ).toBe(200);
    expect((await call(t, mod, 'POST', `/mod/reports/${id}/dismiss`)).statusCode).toBe(409);
    expect((await call(t, mod, 'POST', '/mod/reports/999999/dismiss')).statusCode).toBe(404);
    expect((await call(t, mod, 'POST', '/mod/reports/abc/dismiss')).statusCode).toBe(400);
    const after = (await call(t, mod, 'GET', '/mod/reports')).json() as ModReportGroup[];
    expect(after.some((g) => g.targetType === 'LISTING' && g.targetId === listing.id)).toBe(false);
  });

  it('remove hides the listing for everyone and e-mails the seller the reason through the mail queue', async () => {
    expect((await call(t, mod, 'POST', `/mod/listings/${listing.id}/remove`, {})).statusCode).toBe(400);
    expect(
      (await call(t, mod, 'POST', `/mod/listings/${listing.id}/remove`, { reason: ' ' })).statusCode,
    ).toBe(400);
    expect((await call(t, mod, 'POST', '/mod/listings/999999/remove', { reason: 'x' })).statusCode).toBe(404);
    const before = t.mail.count(seller.email);
    const res = await call(t, mod, 'POST', `/mod/listings/${listing.id}/remove`, {
      reason: 'Counterfeit phone',
    });
    expect(res.statusCode).toBe(200);
    await t.app.ctx.jobs.runDue({ types: ['notify.send', 'mail.send'] });
    const mail = await t.mail.waitFor(seller.email, before);
    expect(mail.subject).toContain('Too good to be true iPhone');
    expect(mail.text).toContain('A moderator removed it: Counterfeit phone.');
    // …and the notification centre says the same, linking to their listings.
    const centre = (await call(t, seller, 'GET', '/notifications')).json() as NotificationPage;
    expect(centre.notifications[0]).toMatchObject({
      type: 'LISTING_REMOVED',
      title: 'Your listing “Too good to be true iPhone” was removed',
      link: '/personalListings',
    });
    for (const s of [r1, seller, mod]) {
      const v = await visibleTo(t, s, listing.id);
      expect(v).toEqual({ browse: false, search: false, filters: false, detail: 404 });
    }
    expect((await call(t, r2, 'GET', `/listing/${listing.id}`)).json().message).toBe(
      MESSAGES.listingNotFound,
    );
    expect(
      (await report(r2, { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM' })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, mod, 'POST', `/mod/listings/${listing.id}/remove`, { reason: 'again' })).statusCode,
    ).toBe(409);
    // Restore brings it back.
    expect((await call(t, mod, 'POST', `/mod/listings/${listing.id}/restore`)).statusCode).toBe(200);
    expect((await visibleTo(t, r1, listing.id)).detail).toBe(200);
  });

  it('suspend closes sessions, login says until when and why; unsuspend lets them in', async () => {
    const victim = await createStudent(t, { firstName: 'Sly' });
    expect(
      (await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, { reason: 'Scamming', days: 0 }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, { reason: 'Scamming', days: 1.5 }))
        .statusCode,
    ).toBe(400);
    expect((await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, { days: 3 })).statusCode).toBe(400);
    expect((await call(t, mod, 'POST', `/mod/users/${mod.id}/suspend`, { reason: 'me' })).statusCode).toBe(
      400,
    );
    expect((await call(t, mod, 'POST', '/mod/users/999999/suspend', { reason: 'x' })).statusCode).toBe(404);
    const res = await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, {
      reason: 'Scamming buyers',
      days: 7,
    });
    expect(res.statusCode).toBe(200);
    expect((await call(t, victim, 'GET', '/listings')).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('SUSPENDED');
    const until = new Date(t.clock.now() + 7 * 24 * 60 * 60 * 1000).toUTCString().slice(0, 16);
    expect(login.json().message).toContain(until);
    expect(login.json().message).toContain('Reason: Scamming buyers');
    // A wrong password still answers the usual 401: a guesser learns nothing.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: 'not-the-password-1' },
    });
    expect(wrong.statusCode).toBe(401);

    expect(
      (await call(t, mod, 'POST', `/mod/users/${victim.id}/unsuspend`, { reason: 'Appeal accepted' }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, mod, 'POST', `/mod/users/${victim.id}/unsuspend`)).statusCode).toBe(409);
    const back = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(back.statusCode).toBe(200);

    // Without days: until further notice. A timed suspension ends by itself.
    await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, { reason: 'Harassment' });
    const forever = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(forever.json().message).toBe('Your account is suspended until further notice. Reason: Harassment');
    await call(t, mod, 'POST', `/mod/users/${victim.id}/suspend`, { reason: 'One day', days: 1 });
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(later.statusCode).toBe(200);
    mod.token = (
      await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: mod.email, password: mod.password },
      })
    ).body;
  });

  it('the audit log has every action with who, what, when and why, and cannot be changed', async () => {
    const res = await call(t, mod, 'GET', '/mod/audit?limit=100');
    expect(res.statusCode).toBe(200);
    const entries = res.json() as AuditEntry[];
    expect(entries.map((e) => e.action).reverse()).toEqual([
      'RESTORE_LISTING',
      'DISMISS',
      'REMOVE_LISTING',
      'RESTORE_LISTING',
      'SUSPEND',
      'UNSUSPEND',
      'SUSPEND',
      'SUSPEND',
    ]);
    expect(entries.every((e) => e.moderator.id === mod.id && e.moderator.firstName === 'Mona')).toBe(true);
    const removal = entries.find((e) => e.action === 'REMOVE_LISTING');
    expect(removal).toMatchObject({
      targetType: 'LISTING',
      targetId: listing.id,
      reason: 'Counterfeit phone',
    });
    expect(Number.isNaN(Date.parse(removal?.createdAt ?? ''))).toBe(false);
    const page = await call(t, mod, 'GET', '/mod/audit?limit=3');
    expect((page.json() as AuditEntry[]).length).toBe(3);
    expect(String(page.headers.link)).toContain('cursor=');
    const db = t.app.ctx.db.kysely;
    await expect(sql`update mod_audit set reason = 'nothing happened'`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from mod_audit`.execute(db)).rejects.toThrow(/append-only/);
    const still = (await call(t, mod, 'GET', '/mod/audit?limit=100')).json() as AuditEntry[];
    expect(still).toEqual(entries);
  });
});
