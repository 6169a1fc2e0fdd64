import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Listing, NotificationPage } from '@campus/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../db/connection.js';
import { migrateTo } from '../db/migrate.js';
import { createPgDatabase } from '../../test/pg-database.js';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';

const DAY = 86_400_000;
/** argon2id of 'green-and-white-42' (test/students.ts). */
const ARGON_HASH_OF_PASSWORD =
  '$argon2id$v=19$m=47104,t=1,p=1$SLSRdUyWGbSmiSkYQHJbIQ$6S5ynBZTh4j6YaYbZdlqT+eu4r9c6EsrawZU2B/y0dc';

/**
 * Upgrading to freshness (migration 017, features.md §H): listings posted before it have no
 * period; the first start-up gives each a fresh one of LISTING_DAYS from then, with its expiry
 * notice, instead of expiring at once everything older than the period.
 */
describe.each(dialects)('existing listings get a fresh period at the upgrade (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('sets expires_at to the start-up time plus LISTING_DAYS and files the notice', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-fresh-upgrade-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase(process.env.TEST_DATABASE_URL as string, 'cm_upgrade');
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    // The database as an older release left it, with a listing posted a year ago.
    const old = openDb({ dataDir, databaseUrl });
    await migrateTo(old, '014_deals_integrity');
    const yearAgo = Date.now() - 365 * DAY;
    const user = await old.kysely
      .insertInto('users')
      .values({
        email: 'old.seller@msu.edu',
        first_name: 'Olga',
        last_name: 'Old',
        password_hash: ARGON_HASH_OF_PASSWORD,
        verified: 1,
        verified_at: Date.now(),
        token_version: 0,
        created_at: yearAgo,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await old.kysely
      .insertInto('listings')
      .values({
        seller_id: user.id,
        name: 'Old futon',
        description: 'Posted long before freshness',
        category: 'LIFESTYLE',
        price_cents: 4000,
        image_key: null,
        thumb_key: null,
        is_sold: 0,
        created_at: yearAgo,
        updated_at: yearAgo,
      } as never)
      .execute();
    await old.close();

    const t: TestApp = await createTestApp({
      dialect,
      dataDir,
      databaseUrl,
      jobWorker: false,
      env: { CAMPUS_NAME: 'Spartan U', ALLOWED_EMAIL_DOMAINS: 'msu.edu', LISTING_DAYS: '14' },
    });
    const startedAt = t.clock.now();
    const login = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/public/login',
          payload: { email: 'old.seller@msu.edu', password: 'green-and-white-42' },
        })
      ).body;
    let token = await login();
    const get = async (url: string) =>
      (
        await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })
      ).json() as unknown;

    const [listing] = (await get('/listings')) as Listing[];
    expect(listing).toMatchObject({
      name: 'Old futon',
      expiresAt: new Date(startedAt + 14 * DAY).toISOString(),
    });

    // Its notice comes 3 days before the new end, once.
    t.clock.advance(11 * DAY);
    token = await login();
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const page = (await get('/notifications')) as NotificationPage;
    expect(page.notifications.filter((n) => n.type === 'LISTING_EXPIRING')).toHaveLength(1);

    // A restart does not start it again: the period was set once, and it ends on time.
    await t.close();
    const again = await createTestApp({
      dialect,
      dataDir,
      databaseUrl,
      jobWorker: false,
      env: { CAMPUS_NAME: 'Spartan U', ALLOWED_EMAIL_DOMAINS: 'msu.edu', LISTING_DAYS: '14' },
    });
    cleanups.push(() => again.app.close());
    again.clock.nowMs = startedAt + 14 * DAY;
    const relogin = await again.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: 'old.seller@msu.edu', password: 'green-and-white-42' },
    });
    const auth = { authorization: `Bearer ${relogin.body}` };
    const browse = await again.app.inject({ method: 'GET', url: '/listings', headers: auth });
    expect(browse.json()).toEqual([]);
    const mine = await again.app.inject({ method: 'GET', url: '/listings/self', headers: auth });
    expect(mine.json()).toMatchObject([{ name: 'Old futon', expired: true }]);
  });
});
