import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/connection.js';
import { migrateTo } from '../db/migrate.js';
import { createPgDatabase } from '../../test/pg-database.js';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';

const ARGON_HASH_OF_PASSWORD =
  '$argon2id$v=19$m=47104,t=1,p=1$SLSRdUyWGbSmiSkYQHJbIQ$6S5ynBZTh4j6YaYbZdlqT+eu4r9c6EsrawZU2B/y0dc';

/**
 * An operator upgrading a single-campus deployment keeps every row (features.md §E): the database
 * as the previous release left it (migrated to 014, with a student and a listing) starts with the
 * new release and its data becomes the default campus's.
 */
describe.each(dialects)('upgrading a single-campus database (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function previousRelease(): Promise<{ dataDir: string; databaseUrl?: string; db: Db }> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-upgrade-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase(process.env.TEST_DATABASE_URL as string, 'cm_upgrade');
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    const db = openDb({ dataDir, databaseUrl });
    await migrateTo(db, '014_deals_integrity');
    return { dataDir, databaseUrl, db };
  }

  it('files every existing row under the default campus, which keeps serving its students', async () => {
    const old = await previousRelease();
    const k = old.db.kysely;
    // The previous release's rows, written as it wrote them (no campus column yet).
    const user = await k
      .insertInto('users')
      .values({
        email: 'old.student@msu.edu',
        first_name: 'Olga',
        last_name: 'Old',
        password_hash: ARGON_HASH_OF_PASSWORD,
        verified: 1,
        verified_at: Date.now(),
        token_version: 0,
        created_at: Date.now(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await k
      .insertInto('listings')
      .values({
        seller_id: user.id,
        name: 'Old desk',
        description: 'From before campuses',
        category: 'LIFESTYLE',
        price_cents: 1000,
        image_key: null,
        thumb_key: null,
        is_sold: 0,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    await old.db.close();

    const t: TestApp = await createTestApp({
      dialect,
      dataDir: old.dataDir,
      databaseUrl: old.databaseUrl,
      env: { CAMPUS_NAME: 'Spartan U', ALLOWED_EMAIL_DOMAINS: 'msu.edu' },
    });
    cleanups.push(() => t.app.close());
    const campus = t.app.ctx.campuses.default;
    expect(campus).toMatchObject({ id: 1, slug: 'spartan-u', name: 'Spartan U', closed: false });
    const rows = await t.app.ctx.db.kysely
      .selectFrom('listings')
      .innerJoin('users', 'users.id', 'listings.seller_id')
      .select(['listings.name', 'listings.campus_id as listingCampus', 'users.campus_id as userCampus'])
      .execute();
    expect(rows).toEqual([{ name: 'Old desk', listingCampus: 1, userCampus: 1 }]);

    const login = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: 'old.student@msu.edu', password: 'green-and-white-42' },
    });
    expect(login.statusCode).toBe(200);
    const info = await t.app.inject({ method: 'GET', url: '/public/campus' });
    expect(info.json()).toMatchObject({
      slug: 'spartan-u',
      campusName: 'Spartan U',
      allowedDomains: ['msu.edu'],
    });
  });
});
