import { LIMITS, MESSAGES, type Listing } from '@campus/contract';
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
  if (!m) throw new Error(`bad Link header: ${String(link)}`);
  return m[1] as string;
}

describe.each(searchEngines)('paging with limit, cursor and Link ($name)', ({ dialect, env: engineEnv }) => {
  let t: TestApp;
  let seller: Student;
  let reader: Student;
  const originals: Listing[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: engineEnv });
    seller = await createStudent(t);
    reader = await createStudent(t);
    const names = ['Desk lamp', 'Floor lamp', 'Lamp shade', 'Reading lamp', 'Clamp light', 'Lava lamp'];
    for (let i = 0; i < 30; i += 1) {
      const name = `${names[i % names.length]} ${i}`;
      originals.push(
        await postListing(
          t,
          seller,
          validFields({
            name,
            description: `Bright ${name.toLowerCase()} for a dorm`,
            category: 'LIFESTYLE',
            price: String(5 + i),
          }),
        ),
      );
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** Follows Link headers to the end, inserting a new matching listing before every next page. */
  async function walk(firstUrl: string, insertBetween: boolean): Promise<Listing[]> {
    const seen: Listing[] = [];
    let url: string | null = firstUrl;
    let pages = 0;
    while (url) {
      const res = await asStudent(t, reader, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Listing[];
      expect(Array.isArray(page)).toBe(true);
      seen.push(...page);
      url = nextUrl(res.headers.link);
      if (url) {
        expect(page.length).toBeGreaterThan(0);
        expect(url.startsWith(firstUrl.split('?')[0] as string)).toBe(true);
      }
      if (insertBetween) {
        await postListing(
          t,
          seller,
          validFields({
            name: `New lamp ${pages}`,
            description: 'Just posted lamp',
            category: 'LIFESTYLE',
            price: '9',
          }),
        );
      }
      pages += 1;
      expect(pages).toBeLessThan(50);
    }
    return seen;
  }

  it('default and maximum limit', async () => {
    const res = await asStudent(t, reader, { method: 'GET', url: '/listings' });
    expect((res.json() as Listing[]).length).toBe(LIMITS.pageDefault);
    expect(res.headers.link).toMatch(
      new RegExp(`^</listings\\?limit=${LIMITS.pageDefault}&cursor=[\\w-]+>; rel="next"$`),
    );
    const max = await asStudent(t, reader, { method: 'GET', url: `/listings?limit=${LIMITS.pageMax}` });
    expect(max.statusCode).toBe(200);
    expect(max.headers.link).toBeUndefined();
  });

  it.each([
    '/listings',
    '/listings/recent',
    '/listings/LIFESTYLE',
    '/listings/filters?categories=LIFESTYLE&priceMin=0',
  ])('%s: no listing twice, none missed, while new ones are inserted', async (path) => {
    const sep = path.includes('?') ? '&' : '?';
    const seen = await walk(`${path}${sep}limit=7`, true);
    const ids = seen.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of originals) expect(ids).toContain(o.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('search pages keep the ranking: no listing twice, none missed, while new ones are inserted', async () => {
    const all = (
      await asStudent(t, reader, { method: 'GET', url: '/listings/search?query=lamp&limit=100' })
    ).json() as Listing[];
    const seen = await walk('/listings/search?query=lamp&limit=4', true);
    const ids = seen.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Everything that ranked before the walk is found, in the same relative order.
    const allIds = all.map((l) => l.id);
    expect(ids.filter((id) => allIds.includes(id))).toEqual(allIds);
    for (const o of originals.filter((l) => /lamp/i.test(l.name))) expect(ids).toContain(o.id);
  });

  it('a search naming a category pages through its listings: none twice, none missed', async () => {
    // Every listing here is found by its category alone: they tie and rank newest first.
    const all = (
      await asStudent(t, reader, { method: 'GET', url: '/listings/search?query=lifestyle&limit=100' })
    ).json() as Listing[];
    const seen = await walk('/listings/search?query=lifestyle&limit=4', true);
    const ids = seen.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    const allIds = all.map((l) => l.id);
    expect(ids.filter((id) => allIds.includes(id))).toEqual(allIds);
    for (const o of originals) expect(ids).toContain(o.id);
  });

  it("/listings/self pages through the caller's listings", async () => {
    const res = await asStudent(t, seller, { method: 'GET', url: '/listings/self?limit=5' });
    expect((res.json() as Listing[]).length).toBe(5);
    const next = nextUrl(res.headers.link) as string;
    expect(next).toMatch(/^\/listings\/self\?limit=5&cursor=/);
    const page2 = (await asStudent(t, seller, { method: 'GET', url: next })).json() as Listing[];
    expect(page2[0]?.id).toBeLessThan((res.json() as Listing[])[4]?.id ?? 0);
  });

  it.each([
    ['limit=0', MESSAGES.invalidLimit],
    ['limit=-3', MESSAGES.invalidLimit],
    ['limit=2.5', MESSAGES.invalidLimit],
    ['limit=101', MESSAGES.invalidLimit],
    ['cursor=abc', MESSAGES.invalidCursor],
    ['cursor=' + Buffer.from('{"k":"b","i":-1}').toString('base64url'), MESSAGES.invalidCursor],
    ['cursor=' + encodeCursor({ kind: 'search', score: 0.1, id: 5 }), MESSAGES.invalidCursor],
  ])('/listings?%s -> 400', async (qs, message) => {
    const res = await asStudent(t, reader, { method: 'GET', url: `/listings?${qs}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('a browse cursor is not a search cursor', async () => {
    const res = await asStudent(t, reader, {
      method: 'GET',
      url: `/listings/search?query=lamp&cursor=${encodeCursor({ kind: 'browse', id: 5 })}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.invalidCursor);
  });
});
