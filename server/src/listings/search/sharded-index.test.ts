import { CATEGORIES, CONDITIONS, type Category } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../../test/helper.js';
import { seededRandom } from '../../../test/random.js';
import type { ListingRow } from '../store.js';
import type { ListingSearch } from './listing-search.js';
import { LiveSearchIndex } from './live-index.js';
import type { ListSort, SearchFilters } from './search-index.js';
import { mergeOrdered } from '../list-order.js';
import { ShardedSearchIndex } from './sharded-index.js';

const WORDS = [
  'calculator',
  'graphing',
  'textbook',
  'chemistry',
  'desk',
  'lamp',
  'bike',
  'helmet',
  'tickets',
  'concert',
  'tutoring',
  'calculus',
  'charger',
  'laptop',
  'jacket',
  'winter',
  'mini',
  'fridge',
];
const QUERIES = [
  'calculator',
  'calculater',
  'lamp',
  'winter jacket',
  'tutoring',
  'chem',
  'CSE101',
  'bike helmet',
];
const FILTERS: SearchFilters[] = [
  {},
  { categories: ['BOOKS', 'ELECTRONICS'] },
  { minCents: 1000, maxCents: 5000 },
  { conditions: ['GOOD', 'LIKE_NEW'] },
];
const SORTS: ListSort[] = ['newest', 'price_asc', 'price_desc'];

/** Every page of a relevance search, `limit` at a time, following the cursor as the service does. */
/** The campus every listing of these tests belongs to (the default one of a test app). */
const CAMPUS = 1;

async function allRanked(index: ListingSearch, query: string, filters: SearchFilters, limit: number) {
  const out: Array<{ id: number; score: number }> = [];
  for (let page = 0; page < 100; page += 1) {
    const last = out[out.length - 1];
    const hits = await index.search(
      CAMPUS,
      query,
      filters,
      limit,
      last && { score: last.score, id: last.id },
    );
    out.push(...hits);
    if (hits.length < limit) return out;
  }
  throw new Error('paging did not end');
}

async function allSorted(index: ListingSearch, query: string, filters: SearchFilters, sort: ListSort) {
  const out: Array<{ id: number; price: number }> = [];
  for (let page = 0; page < 100; page += 1) {
    const last = out[out.length - 1];
    const hits = await index.searchSorted(
      CAMPUS,
      query,
      filters,
      sort,
      4,
      last && { price: last.price, id: last.id },
    );
    out.push(...hits);
    if (hits.length < 4) return out;
  }
  throw new Error('paging did not end');
}

describe('mergeOrdered', () => {
  it('keeps the first `limit` of several ordered lists in their common order', () => {
    const order = (a: number, b: number) => a - b;
    expect(mergeOrdered([[1, 4, 9], [2, 3], []], order, 4)).toEqual([1, 2, 3, 4]);
    expect(mergeOrdered([[], []], order, 4)).toEqual([]);
  });
});

describe.each(dialects)('a search index split into shards (%s)', (dialect) => {
  let t: TestApp;
  let whole: LiveSearchIndex;
  let sharded: ShardedSearchIndex;
  let shards: LiveSearchIndex[];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    expect(t.app.ctx.campuses.default.id).toBe(CAMPUS);
    const k = t.app.ctx.db.kysely;
    const now = Date.now();
    const seller = await k
      .insertInto('users')
      .values({
        campus_id: CAMPUS,
        email: 'shards@msu.edu',
        first_name: 'Shard',
        last_name: 'Seller',
        password_hash: 'x',
        verified: 1,
        token_version: 0,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rand = seededRandom(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
    const rows = Array.from({ length: 240 }, (_, i) => {
      const category = pick(CATEGORIES) as Category;
      return {
        campus_id: CAMPUS,
        seller_id: seller.id,
        name: `${pick(WORDS)} ${pick(WORDS)}`,
        description: `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}, picked up on campus`,
        category,
        // Few distinct prices: many ties, which only the id may break.
        price_cents: 500 * Math.floor(rand() * 16),
        image_key: null,
        thumb_key: null,
        is_sold: rand() < 0.1 ? 1 : 0,
        condition: category === 'SERVICES' ? null : pick(CONDITIONS),
        course_code: category === 'BOOKS' && rand() < 0.5 ? 'CSE101' : null,
        created_at: now + i,
        updated_at: now + i,
      };
    });
    await k.insertInto('listings').values(rows).execute();
    const db = t.app.ctx.db;
    whole = new LiveSearchIndex(db);
    shards = [0, 1, 2].map((index) => new LiveSearchIndex(db, { shard: { count: 3, index } }));
    sharded = new ShardedSearchIndex(shards);
    await Promise.all([whole.warm(), sharded.warm()]);
  });

  afterAll(async () => {
    await t.close();
  });

  it('each shard holds only its listings, and together they hold them all once', () => {
    const sizes = shards.map((s) => s.partition(CAMPUS)?.size ?? 0);
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(whole.partition(CAMPUS)?.size);
  });

  it('answers every relevance search, page by page, exactly as one index does', async () => {
    for (const query of QUERIES)
      for (const filters of FILTERS) {
        const expected = await allRanked(whole, query, filters, 5);
        expect(await allRanked(sharded, query, filters, 5), `${query} ${JSON.stringify(filters)}`).toEqual(
          expected,
        );
      }
    // The comparison means something: most searches find several pages.
    expect((await allRanked(whole, 'calculator', {}, 5)).length).toBeGreaterThan(10);
  });

  it('answers every sorted search, page by page, exactly as one index does', async () => {
    for (const query of QUERIES)
      for (const sort of SORTS)
        for (const filters of FILTERS.slice(0, 3))
          expect(
            await allSorted(sharded, query, filters, sort),
            `${query} ${sort} ${JSON.stringify(filters)}`,
          ).toEqual(await allSorted(whole, query, filters, sort));
  });

  it('a write reaches the shard that owns the listing, and the next search sees it', async () => {
    const k = t.app.ctx.db.kysely;
    const now = Date.now();
    const row = (await k
      .insertInto('listings')
      .values({
        campus_id: CAMPUS,
        seller_id: (await k.selectFrom('users').select('id').executeTakeFirstOrThrow()).id,
        name: 'Xylophone for music class',
        description: 'Barely used',
        category: 'OTHER',
        price_cents: 2500,
        image_key: null,
        thumb_key: null,
        is_sold: 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as ListingRow;
    sharded.applyRow(row);
    const found = await sharded.search(CAMPUS, 'xylophone', {}, 10);
    expect(found.map((h) => h.id)).toEqual([row.id]);
    // Only its own shard took it.
    expect(shards.map((s) => s.partition(CAMPUS)?.has(row.id))).toEqual(
      [0, 1, 2].map((i) => row.id % 3 === i),
    );
    sharded.remove(row.id);
    expect(await sharded.search(CAMPUS, 'xylophone', {}, 10)).toEqual([]);
  });
});
