import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NotificationPage } from '@campus/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asStudent,
  createPgDatabase,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { campusMorning } from '../notifications/testing.js';
import { postListing, validFields } from './testing.js';

const DAY = 86_400_000;

/**
 * LISTING_EXPIRING (features.md §H): 3 days before a listing's period ends its seller hears of it,
 * once per period, from a durable job that looks at the listing again when it runs: not after a
 * renewal (the new period has its own notice), not for a sold listing, and once across processes.
 */
describe.each(dialects)('the listing-expiring notice (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two app processes on one database, their clocks moved together; jobs run only when asked. */
  async function twoProcesses(): Promise<[TestApp, TestApp]> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-fresh-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    const first = await createTestApp({ dialect, dataDir, databaseUrl, jobWorker: false });
    cleanups.push(() => first.close());
    const second = await createTestApp({ dialect, dataDir, databaseUrl, jobWorker: false });
    cleanups.push(() => second.close());
    // Daytime on campus, so nothing waits for the morning.
    const start = campusMorning(Date.now());
    first.clock.nowMs = start;
    second.clock.nowMs = start;
    return [first, second];
  }

  const later = async (apps: readonly TestApp[], ms: number, students: Student[]) => {
    for (const t of apps) t.clock.advance(ms);
    // Sessions last 7 days: log in again, as the student would.
    for (const s of students) {
      const res = await apps[0]!.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: s.email, password: s.password },
      });
      s.token = res.body;
    }
  };

  const expiring = async (t: TestApp, seller: Student) =>
    (
      (
        await asStudent(t, seller, { method: 'GET', url: '/notifications?limit=50' })
      ).json() as NotificationPage
    ).notifications.filter((n) => n.type === 'LISTING_EXPIRING');

  it('tells the seller once, 3 days before the end, with a link to the listing, across two processes', async () => {
    const apps = await twoProcesses();
    const [a, b] = apps;
    const seller = await createStudent(a);
    const listing = await postListing(a, seller, validFields({ name: 'Mini fridge' }));

    await later(apps, 27 * DAY - 60_000, [seller]);
    await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue()]);
    expect(await expiring(a, seller)).toHaveLength(0);

    await later(apps, 60_000, [seller]);
    await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue()]);
    await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue()]);
    const notices = await expiring(a, seller);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      title: '“Mini fridge” leaves the market in 3 days',
      link: `/single_listing/${listing.id}`,
    });

    // The end itself sends nothing more.
    await later(apps, 3 * DAY, [seller]);
    await Promise.all([a.app.ctx.jobs.runDue(), b.app.ctx.jobs.runDue()]);
    expect(await expiring(b, seller)).toHaveLength(1);
  });

  it('says nothing for a period that was renewed, and tells again before the new end', async () => {
    const apps = await twoProcesses();
    const [t] = apps;
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Desk lamp' }));

    await later(apps, 20 * DAY, [seller]);
    const renewed = await asStudent(t, seller, { method: 'POST', url: `/listing/${listing.id}/renew` });
    expect(renewed.statusCode, renewed.body).toBe(200);
    // The old period's notice time and end pass: nothing.
    await later(apps, 10 * DAY, [seller]);
    await t.app.ctx.jobs.runDue();
    expect(await expiring(t, seller)).toHaveLength(0);
    // The new period's notice (20 + 27 days after posting).
    await later(apps, 17 * DAY, [seller]);
    await t.app.ctx.jobs.runDue();
    expect(await expiring(t, seller)).toHaveLength(1);
  });

  it('says nothing for a listing sold before its notice', async () => {
    const apps = await twoProcesses();
    const [t] = apps;
    const seller = await createStudent(t);
    const listing = await postListing(t, seller, validFields({ name: 'Bean bag' }));
    await later(apps, 10 * DAY, [seller]);
    const sold = await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${listing.id}` });
    expect(sold.statusCode).toBe(200);
    await later(apps, 20 * DAY, [seller]);
    await t.app.ctx.jobs.runDue();
    expect(await expiring(t, seller)).toHaveLength(0);
  });

  it('follows the notification settings: the centre always, e-mail only when wanted', async () => {
    const apps = await twoProcesses();
    const [t] = apps;
    const quiet = await createStudent(t);
    const told = await createStudent(t);
    const off = await asStudent(t, quiet, {
      method: 'PUT',
      url: '/users/me/notification-settings',
      payload: { kinds: { LISTING_EXPIRING: { email: false } } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await postListing(t, quiet, validFields({ name: 'Shoe rack' }));
    await postListing(t, told, validFields({ name: 'Coat hooks' }));
    const quietBefore = t.mail.count(quiet.email);
    const toldBefore = t.mail.count(told.email);
    await later(apps, 27 * DAY, [quiet, told]);
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    expect(await expiring(t, quiet)).toHaveLength(1);
    expect(await expiring(t, told)).toHaveLength(1);
    const mail = await t.mail.waitFor(told.email, toldBefore);
    expect(mail.subject).toContain('Coat hooks');
    expect(t.mail.count(quiet.email)).toBe(quietBefore);
  });
});
