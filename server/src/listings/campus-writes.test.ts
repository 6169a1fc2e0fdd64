import { MESSAGES, type Listing } from '@campus/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart, postListing, validFields } from './testing.js';

/**
 * Changing a listing (features.md §E): its seller acts; a student of the same campus is refused as
 * before (403: the listing is there for them to see); a student of another campus gets exactly
 * what an unknown id gets (404), and the listing stays as it was; nobody anonymous gets in.
 */
describe.each(dialects)('listing writes stay within the campus (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let neighbour: Student;
  let stranger: Student;
  let jpeg: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: TWO_CAMPUSES });
    seller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    neighbour = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    stranger = await createStudent(t);
    jpeg = await makeJpeg(400, 300);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A fresh listing with two photos, so every photo route has something to act on. */
  async function listingWithPhotos(): Promise<Listing> {
    const listing = await postListing(t, seller, validFields({ name: 'Rain jacket' }), jpeg);
    const added = await asStudent(t, seller, {
      method: 'POST',
      url: `/listing/${listing.id}/photos`,
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(added.statusCode, added.body).toBe(201);
    return added.json() as Listing;
  }

  const writes: Array<[string, (l: Listing) => InjectOptions]> = [
    ['PATCH /listing/{id}', (l) => ({ method: 'PATCH', url: `/listing/${l.id}`, payload: { price: 1 } })],
    ['PUT /listings/sold/{id}', (l) => ({ method: 'PUT', url: `/listings/sold/${l.id}` })],
    [
      'POST /listing/{id}/photos',
      (l) => ({ method: 'POST', url: `/listing/${l.id}/photos`, ...multipart({}, [{ data: jpeg }]) }),
    ],
    [
      'DELETE /listing/{id}/photos/{photoId}',
      (l) => ({ method: 'DELETE', url: `/listing/${l.id}/photos/${l.photos[1]?.id}` }),
    ],
    [
      'PUT /listing/{id}/photos/order',
      (l) => ({
        method: 'PUT',
        url: `/listing/${l.id}/photos/order`,
        payload: { photoIds: l.photos.map((p) => p.id).reverse() },
      }),
    ],
    ['DELETE /listing/{id}', (l) => ({ method: 'DELETE', url: `/listing/${l.id}` })],
  ];

  it.each(writes)('%s: another campus gets 404 like an unknown id; the listing stays', async (_, request) => {
    const listing = await listingWithPhotos();
    const before = (await asStudent(t, seller, { method: 'GET', url: `/listing/${listing.id}` })).body;
    const unknownId = { ...listing, id: 987_654_321 };
    const other = await asStudent(t, stranger, request(listing));
    const unknown = await asStudent(t, stranger, request(unknownId));
    expect(other.statusCode, other.body).toBe(404);
    expect(other.body).toBe(unknown.body);
    expect(other.json().message).toBe(MESSAGES.listingNotFound);
    const anonymous = await t.app.inject(request(listing));
    expect(anonymous.statusCode).toBe(401);
    // The same campus's student is refused as a non-seller, not as a stranger.
    const same = await asStudent(t, neighbour, request(listing));
    expect(same.statusCode).toBe(403);
    const after = await asStudent(t, seller, { method: 'GET', url: `/listing/${listing.id}` });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before);
    // The seller may.
    const own = await asStudent(t, seller, request(listing));
    expect(own.statusCode, own.body).toBeLessThan(300);
  });

  it("prohibited terms are the poster's campus's: uw refuses its own rule, msu does not know it", async () => {
    const fields = validFields({ name: 'Spare dorm key', description: 'A dorm key for Hall B.' });
    const uw = await asStudent(t, seller, { method: 'POST', url: '/listing', ...multipart(fields) });
    expect(uw.statusCode).toBe(400);
    expect(uw.json().message).toMatch(/dorm keys are not allowed/);
    const msu = await asStudent(t, stranger, { method: 'POST', url: '/listing', ...multipart(fields) });
    expect(msu.statusCode, msu.body).toBe(201);
    // An edit is checked by the same rules.
    const listing = await postListing(t, seller, validFields({ name: 'Bike lock' }));
    const edit = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: { description: 'Comes with a dorm key' },
    });
    expect(edit.statusCode).toBe(400);
  });
});
