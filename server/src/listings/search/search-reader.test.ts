import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { openSearchReader } from '../../db/search-reader.js';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  type Student,
  type TestApp,
} from '../../../test/helper.js';
import { postListing, validFields } from '../testing.js';

const base = process.env.TEST_DATABASE_URL;

/**
 * Search in PostgreSQL through its own reader (SEARCH_DATABASE_URL, db/search-reader.ts): the role
 * is checked before the server takes requests, and a search through it answers what a search under
 * row-level security answers, within the student's campus.
 */
describe.skipIf(!base)('the search reader (SEARCH_DATABASE_URL)', () => {
  let withReader: TestApp;
  let underPolicies: TestApp;
  let msu: Student;
  let uw: Student;
  const roles: string[] = [];
  const suffix = randomBytes(4).toString('hex');

  const admin = async <T>(work: (client: pg.Client) => Promise<T>, url = withReader.databaseUrl!) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  /** A login role on the test database with the given attributes and grants; its URL. */
  const role = async (name: string, attributes: string, grants: string[]) => {
    const full = `cm_search_${name}_${suffix}`;
    roles.push(full);
    await admin(async (c) => {
      await c.query(`create role ${full} login ${attributes}`);
      for (const grant of grants) await c.query(`grant ${grant} on listings to ${full}`);
    });
    const url = new URL(withReader.databaseUrl!);
    url.username = full;
    return url.toString();
  };

  beforeAll(async () => {
    const env = { ...TWO_CAMPUSES, SEARCH_ENGINE: 'postgres' };
    withReader = await createTestApp({ dialect: 'postgres', env });
    underPolicies = await createTestApp({
      dialect: 'postgres',
      databaseUrl: withReader.databaseUrl,
      env,
      searchReader: false,
    });
    msu = await createStudent(withReader);
    uw = await createStudent(withReader, { domain: TEST_CAMPUS_DOMAINS.uw });
    for (const [student, prefix] of [
      [msu, 'Spartan'],
      [uw, 'Husky'],
    ] as const) {
      await postListing(withReader, student, validFields({ name: `${prefix} desk lamp`, price: '12' }));
      await postListing(withReader, student, validFields({ name: `${prefix} lamp shade`, price: '5' }));
      await postListing(withReader, student, validFields({ name: 'Graphing calculator', price: '40' }));
    }
  });

  afterAll(async () => {
    await underPolicies?.close();
    if (withReader) {
      await admin(async (c) => {
        for (const r of roles) {
          await c.query(`revoke all on listings from ${r}`);
          await c.query(`drop role if exists ${r}`);
        }
      });
      await withReader.close();
    }
  });

  const names = async (t: TestApp, student: Student, query: string) => {
    const res = await asStudent(t, student, {
      method: 'GET',
      url: `/listings/search?query=${encodeURIComponent(query)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Array<{ name: string }>).map((l) => l.name);
  };

  it('finds what a search under row-level security finds, only within the campus', async () => {
    for (const [student, own, other] of [
      [msu, 'Spartan', 'Husky'],
      [uw, 'Husky', 'Spartan'],
    ] as const) {
      for (const query of ['lamp', 'lmap shade', 'calculator', `${other} lamp`]) {
        const found = await names(withReader, student, query);
        expect(found).toEqual(await names(underPolicies, student, query));
        expect(found.join(' | ')).not.toContain(other);
      }
      expect(await names(withReader, student, 'lamp')).toEqual([`${own} lamp shade`, `${own} desk lamp`]);
    }
  });

  const noGrant = async () => undefined;

  it('starts processes side by side that each grant the same new role', async () => {
    const url = await role('shared', 'bypassrls', []);
    const env = { ...TWO_CAMPUSES, SEARCH_ENGINE: 'postgres', SEARCH_DATABASE_URL: url };
    const apps = await Promise.all(
      [1, 2, 3].map(() => createTestApp({ dialect: 'postgres', databaseUrl: withReader.databaseUrl, env })),
    );
    try {
      for (const t of apps)
        expect(await names(t, uw, 'lamp')).toEqual(['Husky lamp shade', 'Husky desk lamp']);
    } finally {
      await Promise.all(apps.map((t) => t.close()));
    }
  });

  it('refuses at start-up a role the campus policies hold: its searches would find nothing', async () => {
    const url = await role('held', '', ['select']);
    await expect(openSearchReader(url, false, noGrant)).rejects.toThrow(
      /row-level security holds.*find nothing/,
    );
  });

  it('refuses a role that may not read the listings', async () => {
    const url = await role('blind', 'bypassrls', []);
    await expect(openSearchReader(url, false, noGrant)).rejects.toThrow(/may not read the listings table/);
  });

  it('gives the role the operator created SELECT on listings, and searches through it', async () => {
    const url = await role('fresh', 'bypassrls', []);
    const t = await createTestApp({
      dialect: 'postgres',
      databaseUrl: withReader.databaseUrl,
      env: { ...TWO_CAMPUSES, SEARCH_ENGINE: 'postgres', SEARCH_DATABASE_URL: url },
    });
    try {
      expect(await names(t, msu, 'lamp')).toEqual(['Spartan lamp shade', 'Spartan desk lamp']);
    } finally {
      await t.close();
    }
  });

  it('in production, refuses a role that could change listings or a superuser; takes a reader', async () => {
    const writer = await role('writer', 'bypassrls', ['select', 'update']);
    await expect(openSearchReader(writer, true, noGrant)).rejects.toThrow(/may change the listings table/);
    // Outside production (a developer's own role) it is only read through.
    await (await openSearchReader(writer, false, noGrant)).close();
    await expect(openSearchReader(withReader.databaseUrl!, true, noGrant)).rejects.toThrow(/a superuser/);
    const reader = await openSearchReader(await role('reader', 'bypassrls', ['select']), true, noGrant);
    await reader.close();
  });

  it("starts every connection, the app's and the reader's, without parallel workers or JIT", async () => {
    const settings = async (kysely: Kysely<Database>) =>
      (
        await sql<{
          parallel: string;
          jit: string;
        }>`select current_setting('max_parallel_workers_per_gather') as parallel,
          current_setting('jit') as jit`.execute(kysely)
      ).rows[0];
    expect(await settings(withReader.app.ctx.db.kysely)).toEqual({ parallel: '0', jit: 'off' });
    const reader = await openSearchReader(await role('plain', 'bypassrls', ['select']), true, noGrant);
    try {
      expect(await settings(reader.kysely)).toEqual({ parallel: '0', jit: 'off' });
    } finally {
      await reader.close();
    }
  });

  it('is read only by search in PostgreSQL', () => {
    expect(() =>
      loadConfig({
        SEARCH_DATABASE_URL: 'postgres://search@db/market',
        DATABASE_URL: 'postgres://db/market',
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        SEARCH_ENGINE: 'postgres',
        DATABASE_URL: 'postgres://db/m',
        SEARCH_DATABASE_URL: 'mysql://x',
      }),
    ).toThrow(/SEARCH_DATABASE_URL: must be a postgres:\/\/ URL/);
  });
});
