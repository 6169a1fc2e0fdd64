/**
 * Free listings (features.md §H): posting one (price omitted or 0, a claim window of 1–72 hours,
 * default 12), the answers' `free`, the `free=true` filter, and a priced listing's rules unchanged.
 */
import { CLAIMS_MESSAGES, MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { multipart, postListing, validFields } from '../listings/testing.js';
import { HOUR } from './testing.js';

describe.each(searchEngines)('free listings ($name)', ({ dialect, env: engineEnv }) => {
  let t: TestApp;
  let giver: Student;
  let buyer: Student;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: engineEnv, jobWorker: false });
    giver = await createStudent(t, { firstName: 'Gus' });
    buyer = await createStudent(t, { firstName: 'Bea' });
  });
  afterAll(() => t.close());

  const post = async (fields: Record<string, string>) => {
    const res = await asStudent(t, giver, {
      method: 'POST',
      url: '/listing',
      ...multipart(validFields(fields)),
    });
    return [res.statusCode, (res.json() as { message?: string }).message];
  };

  it('posts a free item with the price left out, and answers free with its window', async () => {
    const listing = await postListing(t, giver, validFields({ name: 'Free couch', price: '', free: 'true' }));
    expect(listing).toMatchObject({ free: true, price: 0, claimWindowHours: 12, status: 'AVAILABLE' });
    expect(Date.parse(listing.claimsCloseAt!) - Date.parse(listing.createdAt)).toBe(12 * HOUR);
    const zero = await postListing(
      t,
      giver,
      validFields({ price: '0', free: 'true', claimWindowHours: '72' }),
    );
    expect(zero).toMatchObject({ free: true, price: 0, claimWindowHours: 72 });
    // JSON bodies take a boolean and a number too.
    const json = await asStudent(t, giver, {
      method: 'POST',
      url: '/listing',
      payload: { ...validFields({ price: '' }), free: true, claimWindowHours: 1 },
    });
    expect(json.statusCode).toBe(201);
  });

  it('refuses a free item with a price, a window out of 1–72 hours, and a window on a priced item', async () => {
    expect(await post({ free: 'true', price: '5' })).toEqual([400, CLAIMS_MESSAGES.freeWithPrice]);
    for (const hours of ['0', '73', '1.5', 'soon']) {
      expect(await post({ free: 'true', price: '', claimWindowHours: hours }), hours).toEqual([
        400,
        CLAIMS_MESSAGES.windowHoursInvalid,
      ]);
    }
    expect(await post({ claimWindowHours: '12' })).toEqual([400, CLAIMS_MESSAGES.windowOnlyFree]);
    expect((await post({ free: 'maybe', price: '' }))[0]).toBe(400);
  });

  it('keeps "price 0 counts as missing" for priced items', async () => {
    expect(await post({ price: '0' })).toEqual([400, MESSAGES.listingRequiredFields]);
    expect(await post({ price: '0', free: 'false' })).toEqual([400, MESSAGES.listingRequiredFields]);
    const priced = await postListing(t, giver, validFields({ name: 'Priced chair', price: '20' }));
    expect(priced.free).toBe(false);
    expect(priced.claimWindowHours).toBeUndefined();
  });

  it('filters free items with free=true in browse and search, and leaves them out with free=false', async () => {
    const lamp = await postListing(
      t,
      giver,
      validFields({ name: 'Free reading lamp', price: '', free: 'true' }),
    );
    await postListing(t, giver, validFields({ name: 'Reading lamp for sale', price: '8' }));
    const get = async (url: string) =>
      (await asStudent(t, buyer, { method: 'GET', url })).json() as Listing[];
    const free = await get('/listings/filters?free=true&limit=50');
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((l) => l.free && l.price === 0)).toBe(true);
    expect(free.map((l) => l.id)).toContain(lamp.id);
    const search = await get('/listings/search?query=reading%20lamp&free=true');
    expect(search.map((l) => l.name)).toEqual(['Free reading lamp']);
    const priced = await get('/listings/filters?free=false&limit=50');
    expect(priced.length).toBeGreaterThan(0);
    expect(priced.some((l) => l.free)).toBe(false);
    const bad = await asStudent(t, buyer, { method: 'GET', url: '/listings/filters?free=yes' });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps a free item free on edit, and a priced one priced', async () => {
    const lamp = await postListing(t, giver, validFields({ name: 'Free desk', price: '', free: 'true' }));
    const patch = (id: number, payload: object) =>
      asStudent(t, giver, { method: 'PATCH', url: `/listing/${id}`, payload });
    const renamed = await patch(lamp.id, { name: 'Free desk (white)' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Free desk (white)', free: true, price: 0 });
    const priced = await patch(lamp.id, { price: '10' });
    expect([priced.statusCode, priced.json().message]).toEqual([400, CLAIMS_MESSAGES.freeStaysFree]);
    const chair = await postListing(t, giver, validFields({ name: 'Chair', price: '10' }));
    expect((await patch(chair.id, { price: '0' })).statusCode).toBe(400);
  });
});
