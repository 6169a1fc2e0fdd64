import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { browserKeys } from './testing.js';

describe.each(dialects)('the same push subscription posted at once by several tabs (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());

  it('every post answers 201 and the device is stored once', async () => {
    const s = await createStudent(t);
    const keys = browserKeys();
    const endpoint = `https://203.0.113.20/tabs-${s.id}`;
    const posts = await Promise.all(
      Array.from({ length: 8 }, () =>
        asStudent(t, s, {
          method: 'POST',
          url: '/push/subscriptions',
          payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        }),
      ),
    );
    expect(posts.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const rows = await t.app.ctx.db.kysely
      .selectFrom('push_subscriptions')
      .select(['user_id'])
      .where('endpoint', '=', endpoint)
      .execute();
    expect(rows).toEqual([{ user_id: s.id }]);
  });
});
