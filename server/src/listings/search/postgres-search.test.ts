import { randomBytes } from 'node:crypto';
import type { Listing } from '@campus/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  type Student,
  type TestApp,
} from '../../../test/helper.js';
import { ConfigError, loadConfig } from '../../config.js';
import { acrossCampuses } from '../../db/campus-scope.js';
import { postListing, validFields } from '../testing.js';
import { keepsCopy } from './listing-search.js';
import { PostgresSearch } from './postgres-search.js';

/**
 * What SEARCH_ENGINE=postgres adds to the shared search suites (search.test.ts, filters, sorting,
 * paging, courses, campus reads, blocks, moderation, freshness, free items), which run against both
 * engines: its configuration, that no process keeps a copy, the role it runs as, the deep pass.
 */
const base = { DATA_DIR: '/tmp/cm-unused', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' };

describe('SEARCH_ENGINE', () => {
  it('defaults to the memory index', () => {
    expect(loadConfig(base).searchEngine).toBe('memory');
  });

  it('refuses postgres without a PostgreSQL DATABASE_URL, in one line saying what to do', () => {
    let error: unknown;
    try {
      loadConfig({ ...base, SEARCH_ENGINE: 'postgres' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SEARCH_ENGINE: .*DATABASE_URL must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ ...base, SEARCH_ENGINE: 'elastic' })).toThrow(
      /SEARCH_ENGINE: must be memory or postgres/,
    );
    expect(
      loadConfig({ ...base, SEARCH_ENGINE: 'postgres', DATABASE_URL: 'postgres://db/x' }).searchEngine,
    ).toBe('postgres');
  });
});

const nextUrl = (link: string | string[] | undefined) =>
  link === undefined ? null : (/^<([^>]+)>; rel="next"$/.exec(String(link))?.[1] ?? null);

describe.skipIf(!process.env.TEST_DATABASE_URL)('search in PostgreSQL', () => {
  let t: TestApp;
  let seller: Student;
  let reader: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect: 'postgres', env: { ...TWO_CAMPUSES, SEARCH_ENGINE: 'postgres' } });
    seller = await createStudent(t);
    reader = await createStudent(t);
  });
  afterAll(() => t.close());

  const search = async (student: Student, url: string) => {
    const res = await asStudent(t, student, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return { listings: res.json() as Listing[], next: nextUrl(res.headers.link) };
  };

  it('keeps no copy of the listings: a row another process wrote is found at once', async () => {
    const engine = t.app.listings.search;
    expect(engine).toBeInstanceOf(PostgresSearch);
    expect(keepsCopy(engine)).toBe(false);
    // Written straight into the table, as another process would: no event reaches this one.
    const now = t.clock.now();
    const row = await acrossCampuses(() =>
      t.app.ctx.db.kysely
        .insertInto('listings')
        .values({
          campus_id: seller.campusId,
          seller_id: seller.id,
          name: 'Espresso grinder',
          description: 'Burr grinder, barely used',
          category: 'LIFESTYLE',
          price_cents: 3500,
          image_key: null,
          thumb_key: null,
          is_sold: 0,
          created_at: now,
          updated_at: now,
          expires_at: now + 86_400_000,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    const found = await search(reader, '/listings/search?query=expresso%20grinder');
    expect(found.listings.map((l) => l.id)).toEqual([row.id]);
  });

  it('a search that finds nothing within one typo looks again within two, the same on every page', async () => {
    const bikes: number[] = [];
    for (let i = 0; i < 5; i += 1)
      bikes.push(
        (await postListing(t, seller, validFields({ name: `Road bicycle ${i}`, category: 'EVENTS' }))).id,
      );
    for (const sort of ['relevance', 'newest', 'price_asc']) {
      const seen: number[] = [];
      let url: string | null = `/listings/search?query=bycicle&sort=${sort}&limit=2`;
      for (let pages = 0; url; pages += 1) {
        expect(pages).toBeLessThan(5);
        const page = await search(reader, url);
        seen.push(...page.listings.map((l) => l.id));
        url = page.next;
      }
      expect(seen.sort(), sort).toEqual([...bikes].sort());
    }
  });

  it('pages through the listings holding the query, then those within a typo, without gaps', async () => {
    // Pages of "Reading lamp" listings are answered without reading the typo candidates; the page
    // that reaches past them reads everything, and "Reading lamb" follows in its place.
    const lamps = [];
    for (let i = 0; i < 5; i += 1)
      lamps.push(
        await postListing(t, seller, validFields({ name: `Reading lamp ${i}`, category: 'LIFESTYLE' })),
      );
    const lamb = await postListing(t, seller, validFields({ name: 'Reading lamb', category: 'LIFESTYLE' }));
    const seen: number[] = [];
    let url: string | null = '/listings/search?query=lamp&limit=2';
    for (let pages = 0; url; pages += 1) {
      expect(pages).toBeLessThan(6);
      const page = await search(reader, url);
      seen.push(...page.listings.map((l) => l.id));
      url = page.next;
    }
    expect(seen.slice(0, 5).sort()).toEqual(lamps.map((l) => l.id).sort());
    expect(seen.slice(5)).toEqual([lamb.id]);
  });

  it("leaves a blocked seller's listings out in the query, so pages stay full", async () => {
    const blocked = await createStudent(t);
    for (let i = 0; i < 3; i += 1) await postListing(t, blocked, validFields({ name: `Blue kettle ${i}` }));
    const mine = [];
    for (let i = 0; i < 3; i += 1)
      mine.push(await postListing(t, seller, validFields({ name: `Blue kettle ${i}` })));
    expect(
      (await asStudent(t, reader, { method: 'PUT', url: `/users/${blocked.id}/block` })).statusCode,
    ).toBe(200);
    const first = await search(reader, '/listings/search?query=kettle&limit=2');
    expect(first.listings).toHaveLength(2);
    const second = await search(reader, first.next as string);
    expect([...first.listings, ...second.listings].map((l) => l.id).sort()).toEqual(
      mine.map((l) => l.id).sort(),
    );
    expect(second.next).toBeNull();
  });

  it("another campus's listings are not found, even by name", async () => {
    const uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    await postListing(t, uw, validFields({ name: 'Zamboni driving lessons', category: 'SERVICES' }));
    expect((await search(reader, '/listings/search?query=zamboni')).listings).toEqual([]);
    expect((await search(uw, '/listings/search?query=zamboni')).listings.map((l) => l.name)).toEqual([
      'Zamboni driving lessons',
    ]);
  });
});

/**
 * The app connects as an ordinary role that owns its database (docs/operations.md, "PostgreSQL
 * roles"): migration 022 creates the trusted extensions as that role, and without a search reader
 * (SEARCH_DATABASE_URL, search-reader.test.ts) search runs under row-level security like every
 * other read.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('search in PostgreSQL as an ordinary role', () => {
  const role = `cm_search_${randomBytes(4).toString('hex')}`;
  const database = role;
  let admin: pg.Client;
  let t: TestApp | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create role ${role} login password 'search-role-password' nosuperuser nobypassrls`);
    await admin.query(`create database ${database} owner ${role}`);
  });
  afterAll(async () => {
    await t?.close();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  it('migrates, creates the extensions and finds a typo within the campus only', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.username = role;
    url.password = 'search-role-password';
    url.pathname = `/${database}`;
    t = await createTestApp({
      databaseUrl: url.toString(),
      env: { ...TWO_CAMPUSES, SEARCH_ENGINE: 'postgres' },
      searchReader: false,
    });
    const extensions = await sql<{ extname: string; owner: string }>`
      select extname, pg_get_userbyid(extowner) as owner from pg_extension
      where extname in ('pg_trgm', 'btree_gin', 'fuzzystrmatch') order by extname`.execute(
      t.app.ctx.db.kysely,
    );
    expect(extensions.rows).toEqual([
      { extname: 'btree_gin', owner: role },
      { extname: 'fuzzystrmatch', owner: role },
      { extname: 'pg_trgm', owner: role },
    ]);
    const msu = await createStudent(t);
    const uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    const mine = await postListing(t, msu, validFields({ name: 'Graphing calculator' }));
    await postListing(t, uw, validFields({ name: 'Graphing calculator' }));
    const res = await asStudent(t, msu, { method: 'GET', url: '/listings/search?query=calculater' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Listing[]).map((l) => l.id)).toEqual([mine.id]);
  });
});
