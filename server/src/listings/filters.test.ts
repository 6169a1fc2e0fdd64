import { MESSAGES, PRICE_BUCKETS, bucketsToRange, type Listing, type PriceRange } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from './testing.js';

/** Prices on and around every bucket edge (spec §9: 0-15, 15-50, 50-100, 100+). */
const PRICES = [
  '0.01',
  '5',
  '14.99',
  '15',
  '15.01',
  '30',
  '49.99',
  '50',
  '50.01',
  '75',
  '99.99',
  '100',
  '100.01',
  '250',
  '99999',
];

function query(range: PriceRange, categories: string[] = []): string {
  const p = new URLSearchParams();
  for (const c of categories) p.append('categories', c);
  if (range.priceMin !== undefined) p.set('priceMin', String(range.priceMin));
  if (range.priceMax !== undefined) p.set('priceMax', String(range.priceMax));
  return p.toString();
}

describe.each(searchEngines)(
  'GET /listings/filters: price buckets and categories ($name)',
  ({ dialect, env: engineEnv }) => {
    let t: TestApp;
    let seller: Student;
    const byPrice = new Map<string, Listing>();

    beforeAll(async () => {
      t = await createTestApp({ dialect, env: engineEnv });
      seller = await createStudent(t);
      for (const price of PRICES) {
        const category = Number(price) < 50 ? 'BOOKS' : 'ELECTRONICS';
        byPrice.set(
          price,
          await postListing(t, seller, validFields({ name: `Item at ${price}`, price, category })),
        );
      }
    });
    afterAll(async () => {
      await t.close();
    });

    const fetchPrices = async (qs: string, path = '/listings/filters') => {
      const res = await asStudent(t, seller, { method: 'GET', url: `${path}?${qs}&limit=100` });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Listing[]).map((l) => l.price).sort((a, b) => a - b);
    };
    const expected = (range: PriceRange, categories: string[] = []) =>
      PRICES.map(Number)
        .filter(
          (p) =>
            (range.priceMin === undefined || p >= range.priceMin) &&
            (range.priceMax === undefined || p <= range.priceMax),
        )
        .filter((p) => categories.length === 0 || categories.includes(p < 50 ? 'BOOKS' : 'ELECTRONICS'))
        .sort((a, b) => a - b);

    // The table: which buckets are ticked -> the range the web app sends -> the prices that come back.
    const TABLE: Array<[string, string[], number[]]> = [
      ['none', [], PRICES.map(Number)],
      ['0-15', ['0-15'], [0.01, 5, 14.99, 15]],
      ['15-50', ['15-50'], [15, 15.01, 30, 49.99, 50]],
      ['50-100', ['50-100'], [50, 50.01, 75, 99.99, 100]],
      ['100+', ['100+'], [100, 100.01, 250, 99999]],
      [
        '0-15 and 50-100 (lowest min, highest max)',
        ['0-15', '50-100'],
        [0.01, 5, 14.99, 15, 15.01, 30, 49.99, 50, 50.01, 75, 99.99, 100],
      ],
      [
        '15-50 and 100+ (no maximum)',
        ['15-50', '100+'],
        [15, 15.01, 30, 49.99, 50, 50.01, 75, 99.99, 100, 100.01, 250, 99999],
      ],
      ['all four', PRICE_BUCKETS.map((b) => b.id), PRICES.map(Number)],
    ];

    it.each(TABLE)('bucket %s', async (_label, buckets, prices) => {
      const range = bucketsToRange(buckets);
      expect(await fetchPrices(query(range))).toEqual(prices);
      // Search with an empty query is the same filter.
      expect(await fetchPrices(`query=&${query(range)}`, '/listings/search')).toEqual(prices);
    });

    it('combines buckets with one or several categories (repeated or comma-separated, any case)', async () => {
      const range = bucketsToRange(['15-50', '50-100']);
      expect(await fetchPrices(query(range, ['BOOKS']))).toEqual(expected(range, ['BOOKS']));
      expect(await fetchPrices(query(range, ['books', 'Electronics']))).toEqual(
        expected(range, ['BOOKS', 'ELECTRONICS']),
      );
      expect(await fetchPrices(`categories=books,electronics&${query(range)}`)).toEqual(
        expected(range, ['BOOKS', 'ELECTRONICS']),
      );
      expect(await fetchPrices(query({}, ['CLOTHING']))).toEqual([]);
      // A category asked twice still lists each listing once.
      expect(await fetchPrices(query(range, ['BOOKS', 'books', 'ELECTRONICS']))).toEqual(
        expected(range, ['BOOKS', 'ELECTRONICS']),
      );
    });

    it('only unsold listings, newest first', async () => {
      const sold = byPrice.get('30') as Listing;
      await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${sold.id}` });
      const res = await asStudent(t, seller, {
        method: 'GET',
        url: `/listings/filters?${query(bucketsToRange(['15-50']))}`,
      });
      const list = res.json() as Listing[];
      expect(list.map((l) => l.price)).not.toContain(30);
      expect(list.map((l) => l.id)).toEqual([...list.map((l) => l.id)].sort((a, b) => b - a));
      await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${sold.id}` });
    });

    it.each([
      ['priceMin=abc', MESSAGES.invalidPriceFilter],
      ['priceMin=-1', MESSAGES.invalidPriceFilter],
      ['priceMax=1.234', MESSAGES.invalidPriceFilter],
      ['priceMin=50&priceMax=15', MESSAGES.invalidPriceFilter],
      ['categories=CARS', MESSAGES.categoryInvalid],
      ['categories=BOOKS&categories=nope', MESSAGES.categoryInvalid],
      ['limit=0', MESSAGES.invalidLimit],
      ['limit=101', MESSAGES.invalidLimit],
      ['limit=ten', MESSAGES.invalidLimit],
      ['cursor=%%%', MESSAGES.invalidCursor],
    ])('400 for %s', async (qs, message) => {
      const res = await asStudent(t, seller, { method: 'GET', url: `/listings/filters?${qs}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code: 'VALIDATION' });
    });

    it('empty price parameters count as absent', async () => {
      expect(await fetchPrices('priceMin=&priceMax=')).toEqual(PRICES.map(Number));
    });
  },
);
