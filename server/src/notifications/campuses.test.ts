import { createHmac } from 'node:crypto';
import type { NotificationPage, NotificationSettings } from '@campus/contract';
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
import { createListing } from '../chat/testing.js';
import { inCampus } from '../db/campus-scope.js';
import { postListing, validFields } from '../listings/testing.js';
import { notify } from './service.js';
import { campusMorning } from './testing.js';
import { unsubscribeToken } from './unsubscribe.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The hour a wall clock of the zone shows at the instant. */
const hourIn = (timeZone: string, at: number) =>
  Number(new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(at));

/**
 * The first whole hour after `from` when it is 23:00 in Los Angeles and 02:00 in Detroit (every
 * night but the one a DST change falls on), with no DST change in the day after it.
 */
function laElevenPm(from: number): number {
  let at = Math.ceil(from / HOUR) * HOUR;
  for (;;) {
    const calm = [0, 5, 8, 9, 20, 21].every(
      (h) =>
        hourIn('America/Detroit', at + h * HOUR) === (2 + h) % 24 &&
        hourIn('America/Los_Angeles', at + h * HOUR) === (23 + h) % 24,
    );
    if (calm) return at;
    at += HOUR;
  }
}

describe.each(dialects)('notifications and e-mail per campus (%s)', (dialect) => {
  let t: TestApp;
  let msuStudent: Student;
  let msuSeller: Student;
  let uwStudent: Student;
  let uwSeller: Student;
  let publicUrl: string;
  /** Where uw's e-mails link: its first host, with PUBLIC_URL's scheme and port. */
  let uwSite: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
    t.clock.nowMs = campusMorning(Date.now());
    msuStudent = await createStudent(t, { firstName: 'Morgan' });
    msuSeller = await createStudent(t, { firstName: 'Sal' });
    uwStudent = await createStudent(t, { firstName: 'Uma', domain: TEST_CAMPUS_DOMAINS.uw });
    uwSeller = await createStudent(t, { firstName: 'Wes', domain: TEST_CAMPUS_DOMAINS.uw });
    publicUrl = t.app.ctx.config.publicUrl;
    const site = new URL(publicUrl);
    site.hostname = 'market.uw.edu';
    uwSite = site.origin;
  });
  afterAll(() => t.close());

  const centre = async (s: Student) =>
    (await asStudent(t, s, { method: 'GET', url: '/notifications?limit=50' })).json() as NotificationPage;

  /** A notice for `s`, written as work of `s`'s campus (what every producer does). */
  const tell = (s: Student, title: string, campusId = s.campusId) =>
    inCampus(campusId, () =>
      t.app.ctx.db.kysely
        .transaction()
        .execute((trx) =>
          notify(t.app.ctx, trx, { userId: s.id, type: 'WANTED_MATCH', title, body: title, link: '/wanted' }),
        ),
    );

  it("a uw student's sign-up code e-mail names their campus and links to its site", async () => {
    const email = `new-uw-${Date.now().toString(36)}@${TEST_CAMPUS_DOMAINS.uw}`;
    const msuEmail = `new-msu-${Date.now().toString(36)}@${TEST_CAMPUS_DOMAINS.msu}`;
    for (const address of [email, msuEmail]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        payload: { firstName: 'Ada', lastName: 'Lovelace', email: address, password: 'green-and-white-42' },
      });
      expect(res.statusCode).toBe(201);
    }
    await t.app.ctx.jobs.runDue({ types: ['mail.send'] });
    const mail = await t.mail.waitFor(email);
    expect(mail.subject).toMatch(/^\d{6} is your University of Washington Campus Market code$/);
    expect(mail.text).toContain(`Enter it at ${uwSite}/verify?email=`);
    expect(mail.text).toContain('— University of Washington Campus Market');
    expect(mail.html).toContain('University of Washington Campus Market');
    expect(mail.text).not.toContain('MSU');
    // A campus without hosts links to PUBLIC_URL.
    const msuMail = await t.mail.waitFor(msuEmail);
    expect(msuMail.subject).toContain('MSU Campus Market');
    expect(msuMail.text).toContain(`Enter it at ${publicUrl}/verify?email=`);
  });

  it('a saved-search match e-mail speaks for the campus: its name, links and unsubscribe on its site', async () => {
    const saved = await asStudent(t, uwStudent, {
      method: 'POST',
      url: '/searches',
      payload: { query: 'kayak' },
    });
    expect(saved.statusCode).toBe(201);
    // The same search at msu: an msu listing tells the msu student only, and the other way round.
    await asStudent(t, msuStudent, { method: 'POST', url: '/searches', payload: { query: 'kayak' } });
    const before = t.mail.count(uwStudent.email);
    const msuBefore = t.mail.count(msuStudent.email);
    await postListing(t, uwSeller, validFields({ name: 'Green kayak', category: 'OTHER', price: '150' }));
    await t.app.ctx.jobs.runDue();
    const uwPage = await centre(uwStudent);
    expect(uwPage.notifications.map((n) => n.body)).toEqual(['Green kayak — $150']);
    expect((await centre(msuStudent)).notifications).toEqual([]);
    expect(t.mail.count(msuStudent.email)).toBe(msuBefore);

    const mail = await t.mail.waitFor(uwStudent.email, before);
    expect(mail.html).toContain('University of Washington Campus Market');
    expect(mail.html).not.toContain('MSU Campus Market');
    expect(mail.text).toMatch(new RegExp(`See the listing: ${uwSite}/single_listing/\\d+`));
    expect(mail.text).toContain(`${uwSite}/settings/notifications`);
    const link = /<(http[^>]+)>/.exec(mail.mailHeaders?.get('list-unsubscribe') ?? '')?.[1];
    expect(link?.startsWith(`${uwSite}/public/unsubscribe/${uwStudent.campusId}.${uwStudent.id}.`)).toBe(
      true,
    );
    const path = new URL(link!).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('University of Washington Campus Market');
    // The link re-pointed at the other campus (same student, same kind) is refused.
    const moved = path.replace(`/${uwStudent.campusId}.`, `/${msuStudent.campusId}.`);
    expect(moved).not.toBe(path);
    for (const method of ['GET', 'POST'] as const) {
      expect((await t.app.inject({ method, url: moved })).statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    const settings = (
      await asStudent(t, uwStudent, { method: 'GET', url: '/users/me/notification-settings' })
    ).json() as NotificationSettings;
    expect(settings.kinds.SAVED_SEARCH_MATCH).toEqual({ email: false, push: true });
  });

  it('an unsubscribe link sent before campuses still works, for its student on their campus', async () => {
    const secret = t.app.ctx.config.jwtSecret;
    const sig = createHmac('sha256', secret)
      .update(`unsubscribe:${uwStudent.id}:PRICE_DROP`)
      .digest('base64url')
      .slice(0, 32);
    const legacy = `/public/unsubscribe/${uwStudent.id}.PRICE_DROP.${sig}`;
    const page = await t.app.inject({ method: 'GET', url: legacy });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('University of Washington Campus Market');
    expect((await t.app.inject({ method: 'POST', url: legacy })).statusCode).toBe(200);
    const settings = (
      await asStudent(t, uwStudent, { method: 'GET', url: '/users/me/notification-settings' })
    ).json() as NotificationSettings;
    expect(settings.kinds.PRICE_DROP.email).toBe(false);
    // A token is bound to its campus: the same student and kind signed for msu is not uw's.
    const forMsu = unsubscribeToken(
      secret,
      { userId: uwStudent.id, campusId: msuStudent.campusId },
      'OFFER_RECEIVED',
    );
    expect((await t.app.inject({ method: 'POST', url: `/public/unsubscribe/${forMsu}` })).statusCode).toBe(
      200,
    );
    const after = (
      await asStudent(t, uwStudent, { method: 'GET', url: '/users/me/notification-settings' })
    ).json() as NotificationSettings;
    // …and writes nothing: no msu student has that id.
    expect(after.kinds.OFFER_RECEIVED.email).toBe(true);
  });

  it('quiet hours follow each campus: 23:00 in Los Angeles is 02:00 in Detroit', async () => {
    const morning = t.clock.nowMs;
    const night = laElevenPm(morning + HOUR);
    t.clock.nowMs = night;
    const uwBefore = t.mail.count(uwStudent.email);
    const msuBefore = t.mail.count(msuStudent.email);
    await tell(uwStudent, 'Night owl lamp (uw)');
    await tell(msuStudent, 'Night owl lamp (msu)');
    await t.app.ctx.jobs.runDue();
    // Both centres have it at once; neither e-mail goes out at night.
    expect((await centre(uwStudent)).notifications[0]?.title).toBe('Night owl lamp (uw)');
    expect((await centre(msuStudent)).notifications[0]?.title).toBe('Night owl lamp (msu)');
    expect([t.mail.count(uwStudent.email), t.mail.count(msuStudent.email)]).toEqual([uwBefore, msuBefore]);

    // 06:59 → 07:00 in Detroit (03:59 → 04:00 in Los Angeles): msu's e-mail only.
    t.clock.nowMs = night + 5 * HOUR - MINUTE;
    await t.app.ctx.jobs.runDue();
    expect(t.mail.count(msuStudent.email)).toBe(msuBefore);
    t.clock.nowMs = night + 5 * HOUR;
    await t.app.ctx.jobs.runDue();
    expect((await t.mail.waitFor(msuStudent.email, msuBefore)).subject).toBe('Night owl lamp (msu)');
    expect(t.mail.count(uwStudent.email)).toBe(uwBefore);

    // 07:00 in Los Angeles: uw's.
    t.clock.nowMs = night + 8 * HOUR - MINUTE;
    await t.app.ctx.jobs.runDue();
    expect(t.mail.count(uwStudent.email)).toBe(uwBefore);
    t.clock.nowMs = night + 8 * HOUR;
    await t.app.ctx.jobs.runDue();
    expect((await t.mail.waitFor(uwStudent.email, uwBefore)).subject).toBe('Night owl lamp (uw)');

    // The other way round: 19:30 in Los Angeles is 22:30 in Detroit. uw's goes now, msu's waits.
    const evening = night + 24 * HOUR - 3.5 * HOUR;
    t.clock.nowMs = evening;
    const uwEvening = t.mail.count(uwStudent.email);
    const msuEvening = t.mail.count(msuStudent.email);
    await tell(uwStudent, 'Evening desk (uw)');
    await tell(msuStudent, 'Evening desk (msu)');
    await t.app.ctx.jobs.runDue();
    expect((await t.mail.waitFor(uwStudent.email, uwEvening)).subject).toBe('Evening desk (uw)');
    expect(t.mail.count(msuStudent.email)).toBe(msuEvening);
    t.clock.nowMs = morning;
  });

  it('a uw meet-up reminder gives the time on Los Angeles clocks, and its e-mail links to uw', async () => {
    const listingId = await createListing(t, uwSeller.id, 'Rain jacket');
    const offered = await asStudent(t, uwStudent, {
      method: 'POST',
      url: `/listings/${listingId}/offers`,
      payload: { amount: 12 },
    });
    expect(offered.statusCode, offered.body).toBe(201);
    const offerId = (offered.json() as { id: number }).id;
    const accepted = await asStudent(t, uwSeller, { method: 'POST', url: `/offers/${offerId}/accept` });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // 15:00 in Los Angeles (18:00 in Detroit), two days on.
    let startsAt = Math.ceil((t.clock.now() + 2 * 24 * HOUR) / HOUR) * HOUR;
    while (hourIn('America/Los_Angeles', startsAt) !== 15) startsAt += HOUR;
    const proposed = await asStudent(t, uwStudent, {
      method: 'POST',
      url: '/meetups',
      payload: { listingId, spotId: 'suzzallo', startsAt: new Date(startsAt).toISOString() },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const meetupId = (proposed.json() as { id: number }).id;
    const confirmed = await asStudent(t, uwSeller, { method: 'POST', url: `/meetups/${meetupId}/accept` });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await t.app.ctx.jobs.runDue();

    const before = t.mail.count(uwStudent.email);
    const morning = t.clock.nowMs;
    t.clock.nowMs = startsAt - HOUR;
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const reminder = (await centre(uwStudent)).notifications.find((n) => n.type === 'MEETUP_REMINDER');
    expect(reminder?.body).toMatch(/ at 3:00\s?PM\. Have your hand-off code ready\.$/);
    const mail = await t.mail.waitFor(uwStudent.email, before);
    expect(mail.text).toContain(`${uwSite}/chat/`);
    expect(mail.text).toMatch(/at 3:00\s?PM/);
    // The seller's offer e-mail (gathered per chat by its own job) speaks for uw too.
    const offerMail = t.mail.messages.find(
      (m) => m.to.includes(uwSeller.email) && m.subject === 'New offer on “Rain jacket”',
    );
    expect(offerMail?.text).toContain('See the offer');
    expect(offerMail?.text).toContain(`${uwSite}/chat/`);
    expect(offerMail?.html).toContain('University of Washington Campus Market');
    t.clock.nowMs = morning;
  });

  it('never tells a student of another campus, and each centre lists only its own', async () => {
    const uwCount = (await centre(uwStudent)).notifications.length;
    // A producer in msu's scope naming a uw student: dropped, not filed anywhere.
    expect(await tell(uwStudent, 'Not yours', msuStudent.campusId)).toBe(0);
    expect((await centre(uwStudent)).notifications).toHaveLength(uwCount);
    const rows = await t.app.ctx.db.kysely
      .selectFrom('notifications')
      .select('campus_id')
      .where('user_id', '=', uwStudent.id)
      .execute();
    expect(rows.every((r) => Number(r.campus_id) === uwStudent.campusId)).toBe(true);

    // A read marker past every id moves only the caller's own rows.
    await tell(msuSeller, 'Unread at msu');
    await tell(uwStudent, 'Unread at uw');
    const read = await asStudent(t, msuSeller, {
      method: 'POST',
      url: '/notifications/read',
      payload: { upTo: 2147483647 },
    });
    expect(read.json()).toEqual({ unreadCount: 0 });
    expect((await centre(uwStudent)).notifications[0]).toMatchObject({ title: 'Unread at uw', readAt: null });
    // Paging from another campus's id shows only the caller's rows.
    const uwNewest = (await centre(uwStudent)).notifications[0]!.id;
    const paged = (
      await asStudent(t, msuSeller, { method: 'GET', url: `/notifications?before=${uwNewest + 1}` })
    ).json() as NotificationPage;
    expect(paged.notifications.map((n) => n.title)).toEqual(['Unread at msu']);
  });

  it('push devices: only the caller removes their own; a browser moving campus goes with its new student', async () => {
    const endpoint = `https://203.0.113.10/push/${Date.now().toString(36)}`;
    const body = {
      endpoint,
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
    };
    const stored = () =>
      t.app.ctx.db.kysely
        .selectFrom('push_subscriptions')
        .select(['user_id', 'campus_id'])
        .where('endpoint', '=', endpoint)
        .execute();
    const sub = await asStudent(t, msuStudent, { method: 'POST', url: '/push/subscriptions', payload: body });
    expect(sub.statusCode, sub.body).toBe(201);
    // A student of the other campus cannot remove it (answered like an unknown endpoint).
    const removed = await asStudent(t, uwStudent, {
      method: 'DELETE',
      url: '/push/subscriptions',
      payload: { endpoint },
    });
    expect(removed.statusCode).toBe(204);
    expect(await stored()).toEqual([{ user_id: msuStudent.id, campus_id: msuStudent.campusId }]);
    // The browser itself re-subscribes for a uw student: the endpoint is now theirs alone.
    expect(
      (await asStudent(t, uwStudent, { method: 'POST', url: '/push/subscriptions', payload: body }))
        .statusCode,
    ).toBe(201);
    expect(await stored()).toEqual([{ user_id: uwStudent.id, campus_id: uwStudent.campusId }]);
  });
});
