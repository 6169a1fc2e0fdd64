import type { DataExport, NotificationPage, Profile } from '@campus/contract';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { makeJpeg, multipart } from '../listings/testing.js';
import { browserKeys } from '../notifications/testing.js';
import { MOD_EMAIL, call } from './testing.js';

/** What account deletion and the export leave behind (features.md §C "Own data"). */
describe.each(dialects)('own data: avatar, bio, notifications, export (%s)', (dialect) => {
  let t: TestApp;
  let mod: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: { MODERATOR_EMAILS: MOD_EMAIL } });
    mod = await createStudent(t, { email: MOD_EMAIL, firstName: 'Mona', lastName: 'Moderator' });
  });
  afterAll(() => t.close());

  const count = async (
    table: 'notifications' | 'push_subscriptions' | 'notification_prefs',
    userId: number,
  ) =>
    Number(
      (
        await t.app.ctx.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.n,
    );

  it('deleting the account removes the avatar files, the bio, push subscriptions and notifications', async () => {
    const me = await createStudent(t, { firstName: 'Leaving' });
    const peer = await createStudent(t, { firstName: 'Staying' });
    const form = multipart({}, [{ data: await makeJpeg(300, 300) }]);
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/users/me/avatar',
      headers: { ...form.headers, Authorization: `Bearer ${me.token}` },
      payload: form.payload,
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    const avatarUrl = (avatar.json() as Profile).avatarUrl as string;
    expect((await call(t, peer, 'GET', avatarUrl)).statusCode).toBe(200);
    expect((await call(t, me, 'PATCH', '/users/me', { bio: 'Physics, 3rd year, Brody' })).statusCode).toBe(
      200,
    );
    const keys = browserKeys();
    const sub = { endpoint: 'https://203.0.113.20/leaving', keys: { p256dh: keys.p256dh, auth: keys.auth } };
    expect((await call(t, me, 'POST', '/push/subscriptions', sub)).statusCode).toBe(201);
    const settings = { kinds: { OFFER_RECEIVED: { email: false } } };
    expect((await call(t, me, 'PUT', '/users/me/notification-settings', settings)).statusCode).toBe(200);
    // A notification: an offer on my listing.
    const listingId = await createListing(t, me.id, 'Old lamp');
    expect((await call(t, peer, 'POST', `/listings/${listingId}/offers`, { amount: 5 })).statusCode).toBe(
      201,
    );
    expect(
      ((await call(t, me, 'GET', '/notifications')).json() as NotificationPage).notifications.length,
    ).toBeGreaterThan(0);
    const file = path.join(t.dataDir, 'uploads', path.basename(avatarUrl));
    expect(existsSync(file)).toBe(true);

    expect((await call(t, me, 'DELETE', '/users/me', { password: me.password })).statusCode).toBe(200);
    // The file removal is a job committed with the deletion; the worker runs it.
    await t.app.ctx.jobs.runDue();

    expect(existsSync(file)).toBe(false);
    expect((await call(t, peer, 'GET', avatarUrl)).statusCode).toBe(404);
    const user = await t.app.ctx.db.kysely
      .selectFrom('users')
      .select(['bio', 'avatar_key', 'avatar_thumb_key'])
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ bio: null, avatar_key: null, avatar_thumb_key: null });
    expect(await count('notifications', me.id)).toBe(0);
    expect(await count('push_subscriptions', me.id)).toBe(0);
    expect(await count('notification_prefs', me.id)).toBe(0);
  });

  it('the export does not name the moderator who decided a report', async () => {
    const reporter = await createStudent(t, { firstName: 'Reporter' });
    const seller = await createStudent(t);
    const listingId = await createListing(t, seller.id, 'Suspicious phone');
    const report = await call(t, reporter, 'POST', '/reports', {
      targetType: 'LISTING',
      targetId: listingId,
      reason: 'SCAM',
    });
    expect(report.statusCode).toBe(201);
    expect(
      (await call(t, mod, 'POST', `/mod/listings/${listingId}/remove`, { reason: 'Scam' })).statusCode,
    ).toBe(200);

    const data = (await call(t, reporter, 'GET', '/users/me/export')).json() as DataExport;
    const reports = data.tables.reports ?? [];
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ target_id: listingId, status: 'DONE', outcome: 'REMOVED' });
    expect(reports[0]).not.toHaveProperty('decided_by');
    expect(JSON.stringify(data)).not.toContain('Mona');
  });
});
