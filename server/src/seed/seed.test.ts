/**
 * `npm run seed:demo` on two campuses (features.md §E): each campus gets its own share of the
 * demo students and listings, every row written in its campus, and a second run writes nothing.
 */
import { normalizeCourseCode, normalizeIsbn, type CourseBooks } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LISTINGS, DEMO_PASSWORD } from './data.js';
import { seedDemo, type SeededCampus } from './seed.js';
import { TWO_CAMPUSES, createTestApp, dialects, type TestApp } from '../../test/helper.js';

describe.each(dialects)('seed:demo (%s)', (dialect) => {
  let t: TestApp;
  let first: SeededCampus[];

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: TWO_CAMPUSES });
    first = await seedDemo(t.app.ctx.config, t.app.ctx.db);
    // Every demo listing gets a generated photo: minutes on a loaded machine, on PostgreSQL too.
  }, 240_000);

  afterAll(() => t.close());

  it('gives each campus its own demo students and listings, every row in its campus', async () => {
    expect(first.map((s) => [s.campus.slug, s.emails.length, s.listings, s.existed])).toEqual([
      ['msu', 3, 32, false],
      ['uw', 3, 31, false],
    ]);
    expect(first[0]?.emails[0]).toBe('maya.chen.demo@msu.edu');
    expect(first[1]?.emails[0]).toBe('jordan.brooks.demo@uw.edu');
    const db = t.app.ctx.db.kysely;
    const listings = await db
      .selectFrom('listings')
      .innerJoin('users', 'users.id', 'listings.seller_id')
      .innerJoin('campuses', 'campuses.id', 'listings.campus_id')
      .select([
        'campuses.slug as campus',
        'users.email',
        'users.campus_id as sellerCampus',
        'listings.campus_id',
      ])
      .execute();
    expect(listings).toHaveLength(DEMO_LISTINGS.length);
    for (const l of listings) {
      expect(Number(l.campus_id)).toBe(Number(l.sellerCampus));
      expect(l.email.endsWith(`@${l.campus === 'msu' ? 'msu.edu' : 'uw.edu'}`)).toBe(true);
    }
    // Each campus shows different items: no listing name is on both.
    const names = await db.selectFrom('listings').select(['name', 'campus_id']).execute();
    const msuId = first[0]?.campus.id;
    const msuNames = new Set(names.filter((n) => Number(n.campus_id) === msuId).map((n) => n.name));
    expect(names.filter((n) => Number(n.campus_id) !== msuId && msuNames.has(n.name))).toEqual([]);
  });

  it('gives each campus books with course codes and valid ISBNs, so course pages have something', async () => {
    const chips: Record<string, CourseBooks[]> = {};
    for (const email of ['maya.chen.demo@msu.edu', 'jordan.brooks.demo@uw.edu']) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email, password: DEMO_PASSWORD },
      });
      const courses = await t.app.inject({
        method: 'GET',
        url: '/listings/courses',
        headers: { authorization: `Bearer ${login.body}` },
      });
      chips[email] = courses.json() as CourseBooks[];
    }
    expect(chips['maya.chen.demo@msu.edu']).toEqual([
      { courseCode: 'CSE232', books: 2 },
      { courseCode: 'MTH132', books: 2 },
      { courseCode: 'PSY101', books: 1 },
    ]);
    expect(chips['jordan.brooks.demo@uw.edu']?.map((c) => c.courseCode)).toEqual([
      'CHEM237',
      'CSE142',
      'ECON200',
      'MATH208',
      'SPAN201',
    ]);
    for (const l of DEMO_LISTINGS) {
      if (l.isbn !== undefined) expect(normalizeIsbn(l.isbn), l.name).toBe(l.isbn);
      if (l.courseCode !== undefined) expect(normalizeCourseCode(l.courseCode), l.name).toBe(l.courseCode);
    }
  });

  it('lets each demo student log in to their own campus', async () => {
    for (const [email, slug] of [
      ['maya.chen.demo@msu.edu', 'msu'],
      ['jordan.brooks.demo@uw.edu', 'uw'],
    ] as const) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      const campus = await t.app.inject({
        method: 'GET',
        url: '/public/campus',
        headers: { authorization: `Bearer ${login.body}` },
      });
      expect(campus.json()).toMatchObject({ slug });
    }
  });

  it('writes nothing on a second run', async () => {
    const count = async () =>
      Number(
        (
          await t.app.ctx.db.kysely
            .selectFrom('listings')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const again = await seedDemo(t.app.ctx.config, t.app.ctx.db);
    expect(again.map((s) => s.existed)).toEqual([true, true]);
    expect(await count()).toBe(before);
  });
});
