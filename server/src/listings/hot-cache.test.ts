import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { HotCache, PAGE_TTL_MS, cacheKey } from './hot-cache.js';
import { postListing, validFields } from './testing.js';

describe('HotCache bounds', () => {
  it('keys by the parsed page parameters in a fixed order', () => {
    expect(cacheKey('/listings/recent', { limit: 100, cursor: undefined })).toBe(
      '/listings/recent?limit=100',
    );
    expect(cacheKey('/listings/recent', { limit: 5, cursor: { kind: 'browse', id: 7 } })).toMatch(
      /^\/listings\/recent\?limit=5&cursor=[A-Za-z0-9_-]+$/,
    );
  });

  it('evicts the oldest entries beyond the entry cap', () => {
    const cache = new HotCache(3, 1_000_000);
    for (const k of ['a', 'b', 'c', 'd']) cache.remember(1, k, 'x', undefined);
    expect(cache.size).toBe(3);
    expect(cache.answer(1, 'a')).toBeUndefined();
    expect(cache.answer(1, 'd')?.body).toBe('x');
  });

  it('evicts the oldest entries beyond the byte cap and refuses one answer larger than the cap', () => {
    const cache = new HotCache(1_000, 1_000);
    const body = 'y'.repeat(200); // 400 bytes + key
    cache.remember(1, 'a', body, undefined);
    cache.remember(1, 'b', body, undefined);
    cache.remember(1, 'c', body, undefined);
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.answer(1, 'a')).toBeUndefined();
    expect(cache.answer(1, 'c')?.body).toBe(body);
    cache.remember(1, 'huge', 'z'.repeat(600), undefined);
    expect(cache.answer(1, 'huge')).toBeUndefined();
    expect(cache.answer(1, 'c')?.body).toBe(body);
  });

  it("keeps each campus's answers apart; a campus's write clears only its own", () => {
    const cache = new HotCache(10, 100_000);
    cache.remember(1, '/listings?limit=20', 'msu page', undefined);
    cache.remember(2, '/listings?limit=20', 'uw  page', undefined);
    expect(cache.answer(1, '/listings?limit=20')?.body).toBe('msu page');
    expect(cache.answer(2, '/listings?limit=20')?.body).toBe('uw  page');
    expect(cache.answer(3, '/listings?limit=20')).toBeUndefined();
    const before = cache.bytes;
    cache.listingsChanged(2);
    expect(cache.answer(2, '/listings?limit=20')).toBeUndefined();
    expect(cache.answer(1, '/listings?limit=20')?.body).toBe('msu page');
    expect(cache.sizeOf(2)).toBe(0);
    expect(cache.bytes).toBe(before / 2);
    cache.listingsChanged();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('evicts the oldest entry whichever campus holds it', () => {
    const cache = new HotCache(2, 100_000);
    cache.remember(1, 'a', 'x', undefined);
    cache.remember(2, 'a', 'y', undefined);
    cache.remember(2, 'b', 'z', undefined);
    expect(cache.answer(1, 'a')).toBeUndefined();
    expect(cache.sizeOf(2)).toBe(2);
  });

  it('replacing a key does not count its bytes twice, and entries expire', () => {
    let now = 0;
    const cache = new HotCache(10, 10_000, () => now);
    cache.remember(1, 'a', 'x'.repeat(100), undefined);
    const once = cache.bytes;
    cache.remember(1, 'a', 'x'.repeat(100), undefined);
    expect(cache.bytes).toBe(once);
    now += PAGE_TTL_MS;
    expect(cache.answer(1, 'a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

describe.each(dialects)('hot cache keys over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let alice: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    alice = await createStudent(t);
    for (let i = 0; i < 3; i += 1) await postListing(t, alice, validFields({ name: `Cached lamp ${i}` }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('junk query parameters share one entry and never reach the Link header', async () => {
    t.app.listings.cache.listingsChanged();
    const first = await asStudent(t, alice, { method: 'GET', url: '/listings/recent?limit=2&junk=0' });
    expect(first.statusCode).toBe(200);
    for (let n = 1; n <= 200; n += 1) {
      const res = await asStudent(t, alice, {
        method: 'GET',
        url: `/listings/recent?junk=${n}&limit=2&other${n}=${'z'.repeat(50)}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(first.body);
    }
    expect(t.app.listings.cache.size).toBe(1);
    const link = first.headers.link as string;
    expect(link).toMatch(/^<\/listings\/recent\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    expect(link).not.toContain('junk');
  });

  it('the same parameters in another order or spelling hit the same entry', async () => {
    t.app.listings.cache.listingsChanged();
    await asStudent(t, alice, { method: 'GET', url: '/listings/ELECTRONICS?limit=2' });
    await asStudent(t, alice, { method: 'GET', url: '/listings/electronics?limit=2&x=1' });
    await asStudent(t, alice, { method: 'GET', url: '/listings/Electronics?limit=2&limit=2' });
    expect(t.app.listings.cache.size).toBe(1);
  });
});
