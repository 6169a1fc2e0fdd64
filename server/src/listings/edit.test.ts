import { MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  redisUrl,
  type Student,
  type TestApp,
  type TestAppOptions,
} from '../../test/helper.js';
import { postListing, validFields } from './testing.js';

const search = async (t: TestApp, s: Student, qs: string) => {
  const res = await asStudent(t, s, { method: 'GET', url: `/listings/search?${qs}` });
  expect(res.statusCode).toBe(200);
  return res.json() as Listing[];
};
/** The ids a search finds, in its order. */
const searchIds = async (t: TestApp, s: Student, qs: string) => (await search(t, s, qs)).map((l) => l.id);

describe.each(searchEngines)('PATCH /listing/{id}, condition and textbooks ($name)', ({ dialect, env }) => {
  let t: TestApp;
  let seller: Student;
  let other: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env });
    seller = await createStudent(t);
    other = await createStudent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const patch = (s: Student | null, id: number, payload: unknown) =>
    s
      ? asStudent(t, s, {
          method: 'PATCH',
          url: `/listing/${id}`,
          payload: payload as Record<string, unknown>,
        })
      : t.app.inject({ method: 'PATCH', url: `/listing/${id}`, payload: payload as Record<string, unknown> });

  it('lets the seller change any field and answers the listing as it now is', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Desk chair', category: 'LIFESTYLE', price: '40' }),
    );
    const res = await patch(seller, listing.id, {
      price: 32.5,
      name: 'Desk chair (swivel)',
      condition: 'good',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: listing.id,
      name: 'Desk chair (swivel)',
      price: 32.5,
      condition: 'GOOD',
      saveCount: 0,
    });
    const read = await asStudent(t, other, { method: 'GET', url: `/listing/${listing.id}` });
    expect(read.json()).toMatchObject({ name: 'Desk chair (swivel)', price: 32.5, condition: 'GOOD' });
  });

  it('refuses other students (403), anonymous callers (401), unknown ids (404) and bad ids (400)', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Not yours' }));
    const third = await createStudent(t);
    for (const s of [other, third]) {
      const res = await patch(s, listing.id, { price: 1 });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.notYourListing);
    }
    expect((await patch(null, listing.id, { price: 1 })).statusCode).toBe(401);
    expect((await patch(seller, 999999, { price: 1 })).statusCode).toBe(404);
    expect((await patch(seller, 0, { price: 1 })).statusCode).toBe(400);
    const after = await asStudent(t, seller, { method: 'GET', url: `/listing/${listing.id}` });
    expect(after.json().price).toBe(45.5);
  });

  it('validates like create: empty, unknown fields, bad price, too long name, bad category', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Validate me' }));
    const cases: Array<[unknown, string]> = [
      [{}, SELLING_MESSAGES.editEmpty],
      [{ colour: 'red' }, SELLING_MESSAGES.editUnknownField],
      [{ price: '12.345' }, MESSAGES.priceInvalid],
      [{ price: 0 }, MESSAGES.listingRequiredFields],
      [{ price: 100_001 }, MESSAGES.priceTooHigh],
      [{ name: '   ' }, MESSAGES.listingRequiredFields],
      [{ name: 'x'.repeat(121) }, MESSAGES.listingNameTooLong],
      [{ category: 'CARS' }, MESSAGES.categoryInvalid],
      [{ condition: 'BROKEN' }, SELLING_MESSAGES.conditionInvalid],
      [{ courseCode: 'CSE 232' }, SELLING_MESSAGES.textbookOnly],
    ];
    for (const [payload, message] of cases) {
      const res = await patch(seller, listing.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const array = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(array.statusCode).toBe(400);
  });

  it('refuses a condition for services and events, on create and on edit, and clears it on a move there', async () => {
    const create = await asStudent(t, seller, {
      method: 'POST',
      url: '/listing',
      payload: validFields({ category: 'SERVICES', condition: 'NEW' }),
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().message).toBe(SELLING_MESSAGES.conditionNotApplicable);
    const lamp = await postListing(
      t,
      seller,
      validFields({ name: 'Lamp', category: 'LIFESTYLE', condition: 'FAIR' }),
    );
    expect(lamp.condition).toBe('FAIR');
    const both = await patch(seller, lamp.id, { category: 'EVENTS', condition: 'NEW' });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(SELLING_MESSAGES.conditionNotApplicable);
    const moved = await patch(seller, lamp.id, { category: 'EVENTS' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ category: 'EVENTS', condition: null });
    const cleared = await patch(seller, lamp.id, { category: 'LIFESTYLE', condition: null });
    expect(cleared.json().condition).toBeNull();
  });

  it('stores course codes normalised and ISBNs as ISBN-13; only on books', async () => {
    const book = await postListing(
      t,
      seller,
      validFields({
        name: 'Data structures text',
        category: 'BOOKS',
        courseCode: 'cse 232',
        isbn: '0-262-03384-4',
      }),
    );
    expect(book).toMatchObject({ courseCode: 'CSE232', isbn: '9780262033848' });
    const badIsbn = await patch(seller, book.id, { isbn: '978-0-262-03384-9' });
    expect(badIsbn.statusCode).toBe(400);
    expect(badIsbn.json().message).toBe(SELLING_MESSAGES.isbnInvalid);
    const badCourse = await patch(seller, book.id, { courseCode: '232' });
    expect(badCourse.json().message).toBe(SELLING_MESSAGES.courseCodeInvalid);
    const notBook = await asStudent(t, seller, {
      method: 'POST',
      url: '/listing',
      payload: validFields({ category: 'ELECTRONICS', isbn: '9780262033848' }),
    });
    expect(notBook.json().message).toBe(SELLING_MESSAGES.textbookOnly);
    // Moving a book elsewhere drops its textbook fields.
    const moved = await patch(seller, book.id, { category: 'OTHER' });
    expect(moved.json()).toMatchObject({ courseCode: null, isbn: null });
  });

  it('filters by condition (repeated), course code and ISBN on /filters and /search', async () => {
    const s = await createStudent(t);
    const a = await postListing(
      t,
      s,
      validFields({
        name: 'Organic chemistry',
        category: 'BOOKS',
        courseCode: 'CEM 251',
        condition: 'LIKE_NEW',
      }),
    );
    const b = await postListing(
      t,
      s,
      validFields({
        name: 'Organic chemistry notes',
        category: 'BOOKS',
        courseCode: 'CEM252',
        isbn: '9780306406157',
        condition: 'FAIR',
      }),
    );
    const filt = async (qs: string) =>
      ((await asStudent(t, s, { method: 'GET', url: `/listings/filters?${qs}` })).json() as Listing[]).map(
        (l) => l.id,
      );
    expect(await filt('courseCode=cem%20251')).toEqual([a.id]);
    expect(await filt('isbn=0-306-40615-2')).toEqual([b.id]);
    expect(
      await filt('categories=BOOKS&conditions=LIKE_NEW&conditions=FAIR&priceMin=45&priceMax=46'),
    ).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await filt('categories=BOOKS&conditions=FAIR&courseCode=CEM252')).toEqual([b.id]);
    expect(await searchIds(t, s, 'query=organic&conditions=LIKE_NEW')).toEqual([a.id]);
    expect(await searchIds(t, s, 'query=organic&courseCode=CEM252')).toEqual([b.id]);
    const bad = await asStudent(t, s, { method: 'GET', url: '/listings/filters?conditions=MINT' });
    expect(bad.statusCode).toBe(400);
    expect((await asStudent(t, s, { method: 'GET', url: '/listings/filters?isbn=123' })).statusCode).toBe(
      400,
    );
  });

  it('ranks a course-code or ISBN match first in search, even when the text does not match', async () => {
    const s = await createStudent(t);
    await postListing(
      t,
      s,
      validFields({ name: 'MTH 132 calculus notes', category: 'OTHER', description: 'Notes for MTH 132' }),
    );
    const book = await postListing(
      t,
      s,
      validFields({
        name: 'Stewart: Calculus',
        category: 'BOOKS',
        courseCode: 'MTH132',
        isbn: '978-0-8044-2957-3',
      }),
    );
    const byCourse = await search(t, s, 'query=mth%20132');
    expect(byCourse[0]?.id).toBe(book.id);
    const byIsbn = await search(t, s, 'query=080442957X');
    expect(byIsbn.map((l) => l.id)).toEqual([book.id]);
  });

  it('the search index follows an edit at once in this process', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Quokka plush toy', category: 'OTHER' }),
    );
    expect(await searchIds(t, other, 'query=quokka')).toEqual([listing.id]);
    await patch(seller, listing.id, { name: 'Wombat plush toy', description: 'Soft wombat' });
    expect(await search(t, other, 'query=quokka')).toEqual([]);
    expect(await searchIds(t, other, 'query=wombat')).toEqual([listing.id]);
    await patch(seller, listing.id, { price: 3 });
    expect(await searchIds(t, other, 'query=wombat&priceMax=3')).toEqual([listing.id]);
  });

  it('records a price drop of an available listing for the savers (and not a rise)', async () => {
    const listing = await postListing(t, seller, validFields({ name: 'Mini fridge', price: '80' }));
    await patch(seller, listing.id, { price: 90 });
    await patch(seller, listing.id, { price: 60 });
    const drops = await t.app.ctx.db.kysely
      .selectFrom('listing_price_drops')
      .selectAll()
      .where('listing_id', '=', listing.id)
      .execute();
    expect(drops.map((d) => [d.old_price_cents, d.new_price_cents])).toEqual([[9000, 6000]]);
  });
});

/** Two processes on one PostgreSQL database, both built with `options`; closed after the describe. */
function twoProcesses(options: TestAppOptions): { a: TestApp; b: TestApp } {
  const apps = {} as { a: TestApp; b: TestApp };
  beforeAll(async () => {
    apps.a = await createTestApp({ dialect: 'postgres', ...options });
    apps.b = await createTestApp({ databaseUrl: apps.a.databaseUrl, ...options });
  });
  afterAll(async () => {
    await apps.b?.close();
    await apps.a?.close();
  });
  return apps;
}

/** Process B reads a listing, then process A renames it "Terrarium for geckos": its seller and id. */
async function renameSeenElsewhere(a: TestApp, b: TestApp): Promise<{ seller: Student; id: number }> {
  const seller = await createStudent(a);
  const listing = await postListing(a, seller, validFields({ name: 'Axolotl aquarium', category: 'OTHER' }));
  // Process B builds its index (and reads the listing) before the edit.
  expect(await searchIds(b, seller, 'query=axolotl')).toEqual([listing.id]);
  const res = await asStudent(a, seller, {
    method: 'PATCH',
    url: `/listing/${listing.id}`,
    payload: { name: 'Terrarium for geckos', description: 'Glass terrarium' },
  });
  expect(res.statusCode).toBe(200);
  return { seller, id: listing.id };
}

describe.runIf(process.env.TEST_DATABASE_URL && redisUrl)(
  'edits reach other processes (postgres + redis)',
  () => {
    const apps = twoProcesses({ redis: true });

    it('the other process finds the edited text within 1 s', async () => {
      const { a, b } = apps;
      const { seller, id } = await renameSeenElsewhere(a, b);
      // Process A: at once.
      expect(await searchIds(a, seller, 'query=terrarium')).toEqual([id]);
      // Process B: its next read of other processes' changes is at most 1 s away (LiveSearchIndex refreshMs).
      const realNow = performance.now.bind(performance);
      const spy = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + 1_001);
      try {
        expect(await searchIds(b, seller, 'query=terrarium')).toEqual([id]);
        expect(await search(b, seller, 'query=axolotl')).toEqual([]);
      } finally {
        spy.mockRestore();
      }
    });
  },
);

describe.runIf(process.env.TEST_DATABASE_URL)('edits reach other processes (search in PostgreSQL)', () => {
  const apps = twoProcesses({ env: { SEARCH_ENGINE: 'postgres' } });

  it('the other process finds the edited text at once: there is no copy to refresh', async () => {
    const { a, b } = apps;
    const { seller, id } = await renameSeenElsewhere(a, b);
    expect(await searchIds(b, seller, 'query=terrarium')).toEqual([id]);
    expect(await search(b, seller, 'query=axolotl')).toEqual([]);
  });
});
