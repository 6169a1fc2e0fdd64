import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListing } from '../chat/testing.js';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  createPgDatabase,
  createStudent,
  createTestApp,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { acrossCampuses, inCampus } from './campus-scope.js';
import { APP_ROLE } from './migrations/015_campuses.js';

/**
 * PostgreSQL holds campuses apart by itself (features.md §E): a query that forgets the campus
 * filter, run as the role the app's queries use, returns nothing of another campus.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('row-level security on PostgreSQL', () => {
  let t: TestApp;
  let msu: Student;
  let uw: Student;
  let client: pg.Client;
  beforeAll(async () => {
    t = await createTestApp({ dialect: 'postgres', env: TWO_CAMPUSES });
    msu = await createStudent(t);
    uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    await createListing(t, msu.id, 'MSU desk');
    await createListing(t, uw.id, 'UW desk');
    client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await t.close();
  });

  const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();

  it('an unscoped query as the app role sees no campus at all', async () => {
    await client.query(`set role ${APP_ROLE}`);
    try {
      const listings = await client.query('select name from listings');
      expect(listings.rows).toEqual([]);
      const users = await client.query('select id from users');
      expect(users.rows).toEqual([]);
    } finally {
      await client.query('reset role');
    }
  });

  it("with one campus's setting, a query without a campus filter returns only that campus's rows", async () => {
    await client.query(`set role ${APP_ROLE}`);
    try {
      await client.query(`select set_config('app.campus_id', $1, false)`, [String(uw.campusId)]);
      const listings = await client.query<{ name: string }>('select name from listings');
      expect(names(listings.rows)).toEqual(['UW desk']);
      const users = await client.query<{ id: number }>('select id from users');
      expect(users.rows.map((r) => r.id)).toEqual([uw.id]);
    } finally {
      await client.query(`reset role; select set_config('app.campus_id', '', false)`);
    }
  });

  it("the app's own queries carry the campus: a forgotten filter still shows one campus", async () => {
    const db = t.app.ctx.db.kysely;
    const forgetful = () => db.selectFrom('listings').select('name').execute();
    expect(names(await inCampus(msu.campusId, forgetful))).toEqual(['MSU desk']);
    expect(names(await inCampus(uw.campusId, forgetful))).toEqual(['UW desk']);
    expect(names(await acrossCampuses(forgetful))).toEqual(['MSU desk', 'UW desk']);
  });

  it('production refuses a DATABASE_URL whose role would bypass the policies, saying why', async () => {
    const database = await createPgDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-rls-'));
    try {
      const config = loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        SMTP_URL: 'smtp://127.0.0.1:1',
        JWT_SECRET: 'x'.repeat(40),
        LOG_LEVEL: 'silent',
      });
      await expect(
        buildApp(config, { logger: false, jobWorker: false, webDist: '/nonexistent' }),
      ).rejects.toThrow(
        /connects as "postgres", a superuser or BYPASSRLS role: PostgreSQL would not hold it to the campus isolation policies/,
      );
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to write a row into another campus than the one in scope', async () => {
    const db = t.app.ctx.db.kysely;
    const write = inCampus(msu.campusId, () =>
      db.updateTable('listings').set({ campus_id: uw.campusId }).where('name', '=', 'MSU desk').execute(),
    );
    await expect(write).rejects.toThrow(/row-level security/);
    const hidden = await inCampus(msu.campusId, () =>
      db.updateTable('listings').set({ name: 'taken' }).where('name', '=', 'UW desk').executeTakeFirst(),
    );
    expect(Number(hidden.numUpdatedRows)).toBe(0);
  });
});
