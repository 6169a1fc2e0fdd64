import type { Category } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, type Student, type TestApp } from '../../test/helper.js';
import { inCampus } from '../db/campus-scope.js';
import { browse, type BrowseQuery } from './browse-store.js';
import { postListing, validFields } from './testing.js';

const CATEGORIES: Category[] = ['BOOKS', 'LIFESTYLE', 'ELECTRONICS'];

/**
 * PostgreSQL's browse with filters walks a window of the newest listings in index order and plans
 * the rest (browse-store.ts newestByWalking). Pages through every filter with windows far smaller
 * than the data, so pages cross the window's edge, and expects exactly the listings, in exactly the
 * order, of the planner's own single query.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'browse with filters across the walk window (postgres)',
  () => {
    let t: TestApp;
    let sellers: Student[];

    beforeAll(async () => {
      t = await createTestApp({ dialect: 'postgres' });
      sellers = [await createStudent(t), await createStudent(t)];
      for (let i = 0; i < 36; i += 1) {
        await postListing(
          t,
          sellers[i % 2]!,
          validFields({
            name: `Walk item ${i}`,
            category: CATEGORIES[i % 3]!,
            price: String(1 + ((i * 7) % 40)),
          }),
        );
      }
    });

    afterAll(() => t.close());

    const filterSets: Array<Pick<BrowseQuery, 'categories' | 'minCents' | 'maxCents'>> = [
      { categories: ['BOOKS'] },
      { categories: ['BOOKS'], minCents: 3000 },
      { categories: ['BOOKS', 'LIFESTYLE'], maxCents: 1000 },
      { categories: ['LIFESTYLE', 'ELECTRONICS', 'LIFESTYLE'], minCents: 500, maxCents: 2500 },
      { minCents: 3500 },
      { maxCents: 800 },
      { minCents: 100_000 },
    ];

    async function allPages(filters: object, read: (q: BrowseQuery) => Promise<Array<{ id: number }>>) {
      const ids: number[] = [];
      let beforeId: number | undefined;
      for (;;) {
        const rows = await read({
          ...filters,
          campusId: sellers[0]!.campusId,
          includeSold: false,
          now: t.clock.now(),
          beforeId,
          limit: 4,
        });
        ids.push(...rows.map((r) => r.id));
        if (rows.length < 4) return ids;
        beforeId = rows[rows.length - 1]!.id;
      }
    }

    it.each(filterSets)(
      'pages %j the same as the planner, for windows of 1, 2, 5 and 1000',
      async (filters) => {
        const db = t.app.ctx.db.kysely;
        await inCampus(sellers[0]!.campusId, async () => {
          // The planner's own single query per category (the path SQLite takes).
          const expected = await allPages(filters, (q) => browse(db, q, 'sqlite'));
          for (const window of [1, 2, 5, 1000]) {
            const walked = await allPages(filters, (q) => browse(db, q, 'postgres', window));
            expect(walked, `window ${window}`).toEqual(expected);
          }
          if (filters.minCents !== 100_000) expect(expected.length).toBeGreaterThan(0);
        });
      },
    );
  },
);
