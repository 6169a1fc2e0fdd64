import { type Meetup, type NotificationPage } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { call, cast, offer, type Cast } from '../deals/testing.js';
import { DEAL_NOTICE_JOBS } from './deal-notices.js';
import { NOTIFY_JOBS } from './service.js';
import { campusMorning } from './testing.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Jobs run at least once: a process that dies after a job's effect but before the job's row is
 * deleted runs it again (and a lost lease does the same). Each run again here is that second run.
 */
describe.each(dialects)('notification jobs that run again tell nobody twice (%s)', (dialect) => {
  let t: TestApp;
  let c: Cast;
  let spotId: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    c = await cast(t);
    const campus = (await call(t, null, 'GET', '/public/campus')).json() as {
      meetupSpots: Array<{ id: string }>;
    };
    spotId = campus.meetupSpots[0]!.id;
  });
  afterAll(() => t.close());

  const centre = async (s: Student) =>
    ((await call(t, s, 'GET', '/notifications')).json() as NotificationPage).notifications;
  const ofType = async (s: Student, type: string) => (await centre(s)).filter((n) => n.type === type);
  const ok = async (res: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return JSON.parse(r.body) as unknown;
  };
  /** The job filed again for the students' campus, as a lost lease or a crash leaves it. */
  const again = async (type: string, payload: unknown) => {
    await t.app.ctx.jobs.enqueue(t.app.ctx.db.kysely, type, payload, { campusId: c.buyer.campusId });
    await t.app.ctx.jobs.runDue();
  };

  it('the meet-up reminder, its e-mail and the review request, each run twice', async () => {
    const { seller, buyer, listingId } = c;
    const first = await offer(t, buyer, listingId, 12);
    await ok(call(t, seller, 'POST', `/offers/${first.id}/accept`));
    const startsAt = t.clock.now() + 2 * DAY;
    const meetup = (await ok(
      call(t, buyer, 'POST', '/meetups', { listingId, spotId, startsAt: new Date(startsAt).toISOString() }),
      201,
    )) as Meetup;
    await ok(call(t, seller, 'POST', `/meetups/${meetup.id}/accept`));
    await t.app.ctx.jobs.runDue();

    t.clock.nowMs = startsAt - HOUR;
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const [reminder] = await ofType(buyer, 'MEETUP_REMINDER');
    expect(reminder).toBeDefined();
    const mailsToBuyer = t.mail.count(buyer.email);

    await again(DEAL_NOTICE_JOBS.meetupReminder, { meetupId: meetup.id });
    expect(await ofType(buyer, 'MEETUP_REMINDER')).toHaveLength(1);
    expect(await ofType(seller, 'MEETUP_REMINDER')).toHaveLength(1);

    // The reminder's e-mail: a second delivery run sends nothing.
    await again(NOTIFY_JOBS.send, { id: reminder!.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.mail.count(buyer.email)).toBe(mailsToBuyer);

    const { code } = (await ok(call(t, buyer, 'GET', `/listings/${listingId}/handoff`))) as { code: string };
    const { deal } = (await ok(call(t, seller, 'POST', `/listings/${listingId}/handoff`, { code }))) as {
      deal: { id: number };
    };
    t.clock.advance(DAY);
    await t.app.ctx.jobs.runDue();
    expect(await ofType(buyer, 'REVIEW_REQUEST')).toHaveLength(1);
    await again(DEAL_NOTICE_JOBS.reviewRequest, { dealId: deal.id });
    expect(await ofType(buyer, 'REVIEW_REQUEST')).toHaveLength(1);
    expect(await ofType(seller, 'REVIEW_REQUEST')).toHaveLength(1);
  });
});
