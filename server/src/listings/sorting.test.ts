import { SELLING_MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { encodeCursor } from '../http/paging.js';
import { postListing, validFields } from './testing.js';

function nextUrl(link: string | string[] | undefined): string | null {
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(Array.isArray(link) ? (link[0] ?? '') : link);
  return m ? (m[1] as string) : null;
}

type Key = (l: Listing) => [number, number];
/** The order each sort promises, as a (primary, id) key compared ascending. */
const ORDERS: Record<string, Key> = {
  newest: (l) => [-l.id, 0],
  price_asc: (l) => [l.price, l.id],
  price_desc: (l) => [-l.price, -l.id],
};

describe.each(searchEngines)(
  'sorting: every order pages without gaps or repeats while listings are added ($name)',
  ({ dialect, env: engineEnv }) => {
    let t: TestApp;
    let seller: Student;
    let reader: Student;
    const originals: Listing[] = [];
    const books: Listing[] = [];
    let inserted = 0;

    beforeAll(async () => {
      t = await createTestApp({ dialect, env: engineEnv });
      seller = await createStudent(t);
      reader = await createStudent(t);
      for (let i = 0; i < 24; i += 1) {
        // Repeated prices, so the id tie-break is exercised.
        const price = String(5 + (i % 6) * 3);
        originals.push(
          await postListing(
            t,
            seller,
            validFields({
              name: `Desk lamp ${i}`,
              description: 'A lamp for a dorm desk',
              category: 'LIFESTYLE',
              price,
            }),
          ),
        );
      }
      // Books priced between and beside the lamps: a sort over both categories interleaves them.
      for (let i = 0; i < 8; i += 1) {
        books.push(
          await postListing(
            t,
            seller,
            validFields({
              name: `Course reader ${i}`,
              description: 'Readings for a course',
              category: 'BOOKS',
              price: String(4 + i * 2),
            }),
          ),
        );
      }
    });
    afterAll(async () => {
      await t.close();
    });

    /** Follows Link headers, posting new matching listings (cheap, mid and dear) before every next page. */
    async function walk(firstUrl: string): Promise<Listing[]> {
      const seen: Listing[] = [];
      let url: string | null = firstUrl;
      for (let pages = 0; url; pages += 1) {
        expect(pages).toBeLessThan(40);
        const res = await asStudent(t, reader, { method: 'GET', url });
        expect(res.statusCode, res.body).toBe(200);
        seen.push(...(res.json() as Listing[]));
        url = nextUrl(res.headers.link);
        inserted += 1;
        const price = ['1', '11', '99'][inserted % 3] as string;
        await postListing(
          t,
          seller,
          validFields({
            name: `New lamp ${inserted}`,
            description: 'Fresh lamp',
            category: 'LIFESTYLE',
            price,
          }),
        );
      }
      return seen;
    }

    const check = (seen: Listing[], sort: string, complete = true) => {
      const ids = seen.map((l) => l.id);
      expect(new Set(ids).size).toBe(ids.length);
      if (complete) for (const o of originals) expect(ids).toContain(o.id);
      const key = ORDERS[sort] as Key;
      for (let i = 1; i < seen.length; i += 1) {
        const [a1, a2] = key(seen[i - 1] as Listing);
        const [b1, b2] = key(seen[i] as Listing);
        expect(a1 < b1 || (a1 === b1 && a2 < b2), `${sort} at ${i}`).toBe(true);
      }
    };

    it.each(['newest', 'price_asc', 'price_desc'])('/listings/filters?sort=%s', async (sort) => {
      check(await walk(`/listings/filters?categories=LIFESTYLE&sort=${sort}&limit=6`), sort);
    });

    it.each(['newest', 'price_asc', 'price_desc'])(
      '/listings/filters over two categories, sort=%s',
      async (sort) => {
        const seen = await walk(
          `/listings/filters?categories=LIFESTYLE&categories=BOOKS&sort=${sort}&limit=5`,
        );
        check(seen, sort);
        const ids = seen.map((l) => l.id);
        for (const b of books) expect(ids).toContain(b.id);
      },
    );

    it.each(['newest', 'price_asc', 'price_desc'])('/listings/search?query=lamp&sort=%s', async (sort) => {
      check(await walk(`/listings/search?query=lamp&sort=${sort}&limit=6`), sort);
    });

    it('relevance is the search default and newest the browse default; relevance on browse is newest', async () => {
      const filters = (
        await asStudent(t, reader, { method: 'GET', url: '/listings/filters?limit=100' })
      ).json() as Listing[];
      check(filters, 'newest', false);
      const rel = (
        await asStudent(t, reader, { method: 'GET', url: '/listings/filters?sort=relevance&limit=100' })
      ).json() as Listing[];
      expect(rel.map((l) => l.id)).toEqual(filters.map((l) => l.id));
      const cheapFirst = (
        await asStudent(t, reader, {
          method: 'GET',
          url: '/listings/search?query=desk%20lamp&sort=price_asc&priceMin=5&limit=3',
        })
      ).json() as Listing[];
      expect(cheapFirst.map((l) => l.price)).toEqual([5, 5, 5]);
    });

    it('refuses an unknown sort and a cursor of another sort', async () => {
      const bad = await asStudent(t, reader, { method: 'GET', url: '/listings/filters?sort=cheapest' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(SELLING_MESSAGES.sortInvalid);
      const wrong = await asStudent(t, reader, {
        method: 'GET',
        url: `/listings/filters?sort=price_asc&cursor=${encodeCursor({ kind: 'browse', id: 5 })}`,
      });
      expect(wrong.statusCode).toBe(400);
      const forged = await asStudent(t, reader, {
        method: 'GET',
        url: `/listings/search?query=lamp&sort=price_desc&cursor=${Buffer.from('{"k":"p","p":-1,"i":3}').toString('base64url')}`,
      });
      expect(forged.statusCode).toBe(400);
    });
  },
);
