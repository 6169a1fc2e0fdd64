import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { LIMITS, MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart, postListing, validFields } from './testing.js';

describe.each(dialects)('listings API (%s)', (dialect) => {
  let t: TestApp;
  let alice: Student;
  let bob: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    alice = await createStudent(t, { firstName: 'Alice', lastName: 'Archer' });
    bob = await createStudent(t, { firstName: 'Bob', lastName: 'Baker' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (
    student: Student,
    fields: Record<string, string>,
    files: Parameters<typeof multipart>[1] = [],
    url = '/listing',
  ) => asStudent(t, student, { method: 'POST', url, ...multipart(fields, files) });
  // Stored photos and thumbnails (their responsive variants are made by a background job).
  const uploads = async () =>
    (await readdir(path.join(t.dataDir, 'uploads')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.jpg'),
    );

  describe('POST /listing and /listing/new', () => {
    it.each(['/listing', '/listing/new'])(
      '%s answers 201 with the exact text and stores the listing',
      async (url) => {
        const res = await post(alice, validFields({ name: `Lamp via ${url}` }), [], url);
        expect(res.statusCode).toBe(201);
        expect(res.body).toBe(MESSAGES.listingCreated);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        const [mine] = (
          await asStudent(t, alice, { method: 'GET', url: '/listings/self?limit=1' })
        ).json() as Listing[];
        expect(mine).toMatchObject({
          name: `Lamp via ${url}`,
          category: 'ELECTRONICS',
          price: 45.5,
          isSold: false,
        });
      },
    );

    it('gives the listing the exact API shape, with the seller by name and never by e-mail', async () => {
      const listing = await postListing(
        t,
        alice,
        validFields({ name: 'Shape check', category: 'books', price: '12' }),
        await makeJpeg(),
      );
      expect(Object.keys(listing).sort()).toEqual(
        [
          'category',
          'createdAt',
          'description',
          'id',
          'imageUrl',
          'imageVariants',
          'isSold',
          'name',
          'price',
          'seller',
          'thumbnailUrl',
          // features.md §B; saveCount and wantedCount only because the seller is asking
          'condition',
          'courseCode',
          'isbn',
          'photos',
          'savedByMe',
          'saveCount',
          'wantedCount',
          // features.md §H
          'free',
          // features.md §A
          'status',
          // features.md §H; expired only because the seller is asking
          'expiresAt',
          'expired',
          // features.md §H
          'mustGoBy',
          'heldUntil',
        ].sort(),
      );
      expect(listing).toMatchObject({
        name: 'Shape check',
        category: 'BOOKS',
        price: 12,
        seller: { id: alice.id, firstName: 'Alice', lastName: 'Archer' },
        isSold: false,
      });
      expect(Object.keys(listing.seller).sort()).toEqual(['firstName', 'id', 'lastName']);
      expect(JSON.stringify(listing)).not.toContain(alice.email);
      expect(listing.imageUrl).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);
      expect(listing.thumbnailUrl).toMatch(/^\/uploads\/[0-9a-f-]{36}-thumb\.jpg$/);
      expect(new Date(listing.createdAt).toISOString()).toBe(listing.createdAt);
    });

    it('accepts a listing without a photo, and an empty file input as no photo', async () => {
      const noPhoto = await postListing(t, alice, validFields({ name: 'No photo' }));
      expect(noPhoto.imageUrl).toBeNull();
      expect(noPhoto.thumbnailUrl).toBeNull();
      const res = await post(alice, validFields({ name: 'Empty file input' }), [
        { filename: '', data: Buffer.alloc(0) },
      ]);
      expect(res.statusCode).toBe(201);
    });

    it('accepts the same fields as JSON (no photo)', async () => {
      const res = await asStudent(t, alice, {
        method: 'POST',
        url: '/listing/new',
        payload: { name: 'JSON post', category: 'OTHER', description: 'Posted as JSON', price: 3 },
      });
      expect(res.statusCode).toBe(201);
      expect(res.body).toBe(MESSAGES.listingCreated);
    });

    it.each([
      ['name missing', { name: '' }, MESSAGES.listingRequiredFields],
      ['name blank', { name: '   ' }, MESSAGES.listingRequiredFields],
      ['category missing', { category: '' }, MESSAGES.listingRequiredFields],
      ['description missing', { description: '' }, MESSAGES.listingRequiredFields],
      ['price missing', { price: '' }, MESSAGES.listingRequiredFields],
      ['price 0', { price: '0' }, MESSAGES.listingRequiredFields],
      ['price 0.00', { price: '0.00' }, MESSAGES.listingRequiredFields],
      ['negative price', { price: '-5' }, MESSAGES.priceInvalid],
      ['price not a number', { price: 'ten' }, MESSAGES.priceInvalid],
      ['price with 3 decimals', { price: '1.999' }, MESSAGES.priceInvalid],
      ['price too high', { price: '100000.01' }, MESSAGES.priceTooHigh],
      ['unknown category', { category: 'CARS' }, MESSAGES.categoryInvalid],
      [
        'description over 900',
        { description: 'x'.repeat(LIMITS.descriptionMax + 1) },
        MESSAGES.descriptionTooLong,
      ],
      ['name over 120', { name: 'n'.repeat(LIMITS.listingNameMax + 1) }, MESSAGES.listingNameTooLong],
    ])('400 when %s', async (_label, override, message) => {
      const res = await post(alice, validFields(override));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code: 'VALIDATION' });
    });

    it('accepts a description of exactly 900 characters and lower-case categories', async () => {
      const res = await post(alice, validFields({ description: 'd'.repeat(900), category: 'clothing' }));
      expect(res.statusCode).toBe(201);
    });

    it('400 when every field is missing', async () => {
      const res = await post(alice, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.listingRequiredFields);
    });

    it('400 for an unknown text field or a file in another field', async () => {
      const unknown = await post(alice, validFields({ sellerId: '1' }));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(MESSAGES.listingUnknownField);
      const otherFile = await post(alice, validFields(), [{ field: 'photo', data: await makeJpeg(10, 10) }]);
      expect(otherFile.statusCode).toBe(400);
      expect(otherFile.json().message).toBe(MESSAGES.listingUnknownField);
      const json = await asStudent(t, alice, {
        method: 'POST',
        url: '/listing',
        payload: { ...validFields(), isSold: true },
      });
      expect(json.statusCode).toBe(400);
    });

    it('400 for more than eight photos', async () => {
      const jpeg = await makeJpeg(20, 20);
      const res = await post(
        alice,
        validFields(),
        Array.from({ length: 9 }, () => ({ data: jpeg })),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(SELLING_MESSAGES.photosTooMany);
    });

    it('writes no file and no row when the photo or the fields are refused', async () => {
      const before = await uploads();
      const count = async () =>
        ((await asStudent(t, bob, { method: 'GET', url: '/listings/self' })).json() as Listing[]).length;
      const rows = await count();
      const png = await (
        await import('sharp')
      )
        .default({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer();
      expect((await post(bob, validFields(), [{ filename: 'cat.jpg', data: png }])).statusCode).toBe(400);
      expect((await post(bob, validFields({ price: '0' }), [{ data: await makeJpeg() }])).statusCode).toBe(
        400,
      );
      expect(await uploads()).toEqual(before);
      expect(await count()).toBe(rows);
    });

    it('413 for a photo over 10 MB', async () => {
      const big = Buffer.alloc(11 * 1024 * 1024, 0xab);
      big[0] = 0xff;
      big[1] = 0xd8;
      big[2] = 0xff;
      const res = await post(alice, validFields(), [{ data: big }]);
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe(MESSAGES.imageTooLarge);
    });
  });

  describe('reading', () => {
    it('GET /listing/{id} opens any listing, sold ones too; unknown id 404, bad id 400', async () => {
      const listing = await postListing(t, alice, validFields({ name: 'Open me' }));
      const asBob = await asStudent(t, bob, { method: 'GET', url: `/listing/${listing.id}` });
      expect(asBob.statusCode).toBe(200);
      const { saveCount, wantedCount, expired, ...forOthers } = listing;
      expect([saveCount, wantedCount, expired]).toEqual([0, 0, false]);
      expect(asBob.json()).toEqual(forOthers);
      await asStudent(t, alice, { method: 'PUT', url: `/listings/sold/${listing.id}` });
      const sold = await asStudent(t, bob, { method: 'GET', url: `/listing/${listing.id}` });
      expect(sold.json()).toMatchObject({ id: listing.id, isSold: true });
      const missing = await asStudent(t, bob, { method: 'GET', url: '/listing/999999' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: MESSAGES.listingNotFound, code: 'NOT_FOUND' });
      for (const bad of ['abc', '0', '-1', '1.5']) {
        const res = await asStudent(t, bob, { method: 'GET', url: `/listing/${bad}` });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().message).toBe(MESSAGES.listingIdInvalid);
      }
    });

    it('browse lists unsold listings newest first on /listings and /listings/recent', async () => {
      const a = await postListing(t, bob, validFields({ name: 'Browse A' }));
      const b = await postListing(t, bob, validFields({ name: 'Browse B' }));
      const c = await postListing(t, bob, validFields({ name: 'Browse C' }));
      await asStudent(t, bob, { method: 'PUT', url: `/listings/sold/${b.id}` });
      for (const url of ['/listings', '/listings/recent']) {
        const res = await asStudent(t, alice, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const list = res.json() as Listing[];
        const ids = list.map((l) => l.id);
        expect(ids).toEqual([...ids].sort((x, y) => y - x));
        expect(ids).toContain(a.id);
        expect(ids).toContain(c.id);
        expect(ids).not.toContain(b.id);
        expect(list.every((l) => !l.isSold)).toBe(true);
      }
    });

    it('GET /listings/{category} is case-insensitive; an unknown category is 400', async () => {
      const shirt = await postListing(t, bob, validFields({ name: 'Flannel shirt', category: 'CLOTHING' }));
      for (const cat of ['CLOTHING', 'clothing', 'Clothing']) {
        const res = await asStudent(t, alice, { method: 'GET', url: `/listings/${cat}` });
        expect(res.statusCode).toBe(200);
        const list = res.json() as Listing[];
        expect(list.map((l) => l.id)).toContain(shirt.id);
        expect(list.every((l) => l.category === 'CLOTHING')).toBe(true);
      }
      const bad = await asStudent(t, alice, { method: 'GET', url: '/listings/cars' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(MESSAGES.categoryInvalid);
    });

    it("GET /listings/self shows all of the caller's listings, sold included, and nobody else's", async () => {
      const carol = await createStudent(t);
      const one = await postListing(t, carol, validFields({ name: 'Carol one' }));
      const two = await postListing(t, carol, validFields({ name: 'Carol two' }));
      await asStudent(t, carol, { method: 'PUT', url: `/listings/sold/${one.id}` });
      const mine = (await asStudent(t, carol, { method: 'GET', url: '/listings/self' })).json() as Listing[];
      expect(mine.map((l) => [l.id, l.isSold])).toEqual([
        [two.id, false],
        [one.id, true],
      ]);
      const empty = await createStudent(t);
      expect((await asStudent(t, empty, { method: 'GET', url: '/listings/self' })).json()).toEqual([]);
    });
  });

  describe('sold and delete', () => {
    it('PUT /listings/sold/{id} toggles, returns the listing, and browse follows', async () => {
      const listing = await postListing(t, alice, validFields({ name: 'Toggle me', category: 'EVENTS' }));
      const sold = await asStudent(t, alice, { method: 'PUT', url: `/listings/sold/${listing.id}` });
      expect(sold.statusCode).toBe(200);
      expect(sold.json()).toEqual({ ...listing, isSold: true, status: 'SOLD' });
      const browse = async () =>
        ((await asStudent(t, bob, { method: 'GET', url: '/listings/EVENTS' })).json() as Listing[]).map(
          (l) => l.id,
        );
      const search = async () =>
        (
          (
            await asStudent(t, bob, { method: 'GET', url: '/listings/search?query=toggle' })
          ).json() as Listing[]
        ).map((l) => l.id);
      expect(await browse()).not.toContain(listing.id);
      expect(await search()).not.toContain(listing.id);
      const unsold = await asStudent(t, alice, { method: 'PUT', url: `/listings/sold/${listing.id}` });
      expect(unsold.json()).toEqual({ ...listing, isSold: false });
      expect(await browse()).toContain(listing.id);
      expect(await search()).toContain(listing.id);
    });

    it('PUT and DELETE on an unknown id are 404', async () => {
      for (const method of ['PUT', 'DELETE'] as const) {
        const url = method === 'PUT' ? '/listings/sold/999999' : '/listing/999999';
        const res = await asStudent(t, alice, { method, url });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe(MESSAGES.listingNotFound);
      }
    });

    it('DELETE /listing/{id} removes the row, then its photo files', async () => {
      const listing = await postListing(t, alice, validFields({ name: 'Delete me' }), await makeJpeg());
      const imageUrl = listing.imageUrl as string;
      const thumbUrl = listing.thumbnailUrl as string;
      expect((await t.app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(200);
      const res = await asStudent(t, alice, { method: 'DELETE', url: `/listing/${listing.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.listingDeleted, id: listing.id });
      expect((await asStudent(t, alice, { method: 'GET', url: `/listing/${listing.id}` })).statusCode).toBe(
        404,
      );
      // The files go by the job queued with the row's delete.
      await t.app.ctx.jobs.runDue();
      const files = await uploads();
      expect(files).not.toContain(path.basename(imageUrl));
      expect(files).not.toContain(path.basename(thumbUrl));
      expect((await t.app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(404);
      const search = (
        await asStudent(t, bob, { method: 'GET', url: '/listings/search?query=delete me' })
      ).json() as Listing[];
      expect(search.map((l) => l.id)).not.toContain(listing.id);
    });
  });

  describe('GET /uploads/{name}', () => {
    it('serves stored photos as image/jpeg with immutable caching', async () => {
      const listing = await postListing(t, alice, validFields(), await makeJpeg(1200, 900));
      for (const url of [listing.imageUrl, listing.thumbnailUrl] as string[]) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      }
    });

    it('serves nothing but stored names: no traversal, no listing, no other files', async () => {
      for (const url of [
        '/uploads/',
        '/uploads/../market.db',
        '/uploads/..%2fmarket.db',
        '/uploads/%2e%2e/jwt-secret',
        '/uploads/..%2f..%2fetc%2fpasswd',
        '/uploads/.hidden',
        '/uploads/not-a-uuid.jpg',
        '/uploads/00000000-0000-0000-0000-000000000000.jpg',
      ]) {
        const res = await t.app.inject({ method: 'GET', url });
        expect([400, 403, 404], url).toContain(res.statusCode);
        expect(res.headers['content-type'] ?? '', url).not.toBe('image/jpeg');
      }
    });
  });
});
