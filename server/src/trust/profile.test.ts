import { DAY_MS, TRUST_MESSAGES, type Profile } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart, postListing, validFields } from '../listings/testing.js';
import { insertDeal, insertMessage, insertNoShow, insertRoom } from './testing.js';

const MIN = 60_000;

async function profileOf(t: TestApp, viewer: Student, subject: Pick<Student, 'id'>): Promise<Profile> {
  const res = await asStudent(t, viewer, { method: 'GET', url: `/users/${subject.id}/profile` });
  expect(res.statusCode).toBe(200);
  return res.json() as Profile;
}

describe.each(dialects)('profiles (%s)', (dialect) => {
  let t: TestApp;
  let maya: Student;
  let viewer: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    maya = await createStudent(t, { firstName: 'Maya', lastName: 'Lee' });
    viewer = await createStudent(t);
  });
  afterAll(() => t.close());

  it('shows the public profile and never an e-mail address', async () => {
    const available = await postListing(t, maya, validFields({ name: 'Desk lamp' }));
    const sold = await postListing(t, maya, validFields({ name: 'Old kettle' }));
    expect((await asStudent(t, maya, { method: 'PUT', url: `/listings/sold/${sold.id}` })).statusCode).toBe(
      200,
    );

    const res = await asStudent(t, viewer, { method: 'GET', url: `/users/${maya.id}/profile` });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('@');
    expect(res.body).not.toContain(maya.email);
    const profile = res.json() as Profile;
    expect(profile).toMatchObject({
      id: maya.id,
      firstName: 'Maya',
      lastName: 'Lee',
      avatarUrl: null,
      bio: '',
      verifiedStudent: true,
      ratingAverage: null,
      ratingCount: 0,
      dealsCount: 0,
      reliability: null,
      medianReplyMinutes: null,
    });
    expect(Date.parse(profile.memberSince)).toBeGreaterThan(0);
    // Available (and reserved) listings only, newest first.
    expect(profile.listings.map((l) => l.id)).toEqual([available.id]);
  });

  it('refuses anonymous callers, bad ids and unknown students', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/users/${maya.id}/profile` })).statusCode).toBe(401);
    const bad = await asStudent(t, viewer, { method: 'GET', url: '/users/-1/profile' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(TRUST_MESSAGES.userIdInvalid);
    const unknown = await asStudent(t, viewer, { method: 'GET', url: '/users/2147483647/profile' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(TRUST_MESSAGES.userNotFound);
  });

  it('lets a student set and clear their own bio (≤ 280 characters)', async () => {
    const set = await asStudent(t, maya, {
      method: 'PATCH',
      url: '/users/me',
      payload: { bio: '  Econ junior. Selling my dorm stuff before summer.  ' },
    });
    expect(set.statusCode).toBe(200);
    expect((set.json() as Profile).bio).toBe('Econ junior. Selling my dorm stuff before summer.');
    expect((await profileOf(t, viewer, maya)).bio).toBe('Econ junior. Selling my dorm stuff before summer.');

    const tooLong = await asStudent(t, maya, {
      method: 'PATCH',
      url: '/users/me',
      payload: { bio: 'b'.repeat(281) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(TRUST_MESSAGES.bioTooLong);
    const notText = await asStudent(t, maya, { method: 'PATCH', url: '/users/me', payload: { bio: 42 } });
    expect(notText.statusCode).toBe(400);
    const extra = await asStudent(t, maya, {
      method: 'PATCH',
      url: '/users/me',
      payload: { bio: 'hi', email: 'new@msu.edu' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe(TRUST_MESSAGES.profileUnknownField);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/users/me', payload: { bio: 'x' } })).statusCode,
    ).toBe(401);
    // Exactly 280 is fine; the refusals above changed nothing before it.
    const max = await asStudent(t, maya, {
      method: 'PATCH',
      url: '/users/me',
      payload: { bio: 'b'.repeat(280) },
    });
    expect(max.statusCode).toBe(200);

    const cleared = await asStudent(t, maya, { method: 'PATCH', url: '/users/me', payload: { bio: '' } });
    expect((cleared.json() as Profile).bio).toBe('');
  });

  it('stores an avatar through the photo pipeline and serves it', async () => {
    const form = multipart({}, [{ data: await makeJpeg(400, 400) }]);
    const res = await asStudent(t, maya, { method: 'POST', url: '/users/me/avatar', ...form });
    expect(res.statusCode).toBe(200);
    const profile = res.json() as Profile;
    expect(profile.avatarUrl).toMatch(/^\/uploads\//);
    const image = await asStudent(t, viewer, { method: 'GET', url: profile.avatarUrl as string });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((await profileOf(t, viewer, maya)).avatarUrl).toBe(profile.avatarUrl);

    // Not a JPEG, no file, anonymous.
    const png = multipart({}, [{ data: Buffer.from('not an image at all'), contentType: 'image/png' }]);
    expect((await asStudent(t, maya, { method: 'POST', url: '/users/me/avatar', ...png })).statusCode).toBe(
      400,
    );
    const none = await asStudent(t, maya, { method: 'POST', url: '/users/me/avatar', payload: {} });
    expect(none.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/users/me/avatar', ...form })).statusCode).toBe(401);
    // The refused uploads left the avatar as it was.
    expect((await profileOf(t, viewer, maya)).avatarUrl).toBe(profile.avatarUrl);
  });

  it('shows reliability only from 3 deals or no-shows, as deals ÷ (deals + no-shows)', async () => {
    const s = await createStudent(t);
    const peer = await createStudent(t);
    const listing = await postListing(t, s);
    const room = await insertRoom(t, peer, s);
    await insertDeal(t, s, peer);
    await insertNoShow(t, listing.id, room, s, peer);
    let p = await profileOf(t, viewer, s);
    expect(p).toMatchObject({ dealsCount: 1, reliability: null });
    await insertDeal(t, peer, s);
    p = await profileOf(t, viewer, s);
    expect(p).toMatchObject({ dealsCount: 2, reliability: 0.67 });
    await insertDeal(t, s, viewer);
    await insertDeal(t, s, viewer);
    p = await profileOf(t, viewer, s);
    expect(p).toMatchObject({ dealsCount: 4, reliability: 0.8 });
    // The reporter's own reliability is untouched by the no-show they reported.
    expect((await profileOf(t, viewer, peer)).reliability).toBeNull();
  });

  it('computes the median reply time over the last 90 days', async () => {
    const s = await createStudent(t);
    const now = t.clock.now();
    const peers = await Promise.all([1, 2, 3, 4, 5].map(() => createStudent(t)));
    const rooms = await Promise.all(peers.map((p) => insertRoom(t, p, s)));
    const [r1, r2, r3, r4, r5] = rooms as [string, string, string, string, string];
    const [p1, p2, p3, p4, p5] = peers as [Student, Student, Student, Student, Student];
    // Answered after 10, 30 and 50 minutes: median 30.
    await insertMessage(t, r1, p1, now - DAY_MS);
    await insertMessage(t, r1, p1, now - DAY_MS + 5 * MIN);
    await insertMessage(t, r1, s, now - DAY_MS + 10 * MIN);
    await insertMessage(t, r2, p2, now - 2 * DAY_MS);
    await insertMessage(t, r2, s, now - 2 * DAY_MS + 30 * MIN);
    await insertMessage(t, r2, s, now - 2 * DAY_MS + 31 * MIN);
    // A system message (deal event) is not the student answering.
    await insertMessage(t, r3, p3, now - 3 * DAY_MS);
    await insertMessage(t, r3, s, now - 3 * DAY_MS + 1 * MIN, 'system');
    await insertMessage(t, r3, s, now - 3 * DAY_MS + 50 * MIN);
    // Older than 90 days: ignored (a 1-minute answer that would pull the median down).
    await insertMessage(t, r4, p4, now - 91 * DAY_MS);
    await insertMessage(t, r4, s, now - 91 * DAY_MS + 1 * MIN);
    // Not answered yet: no reply time.
    await insertMessage(t, r5, p5, now - 60 * MIN);
    expect((await profileOf(t, viewer, s)).medianReplyMinutes).toBe(30);
    // The peers' own figure counts the student's first message as the one they answer.
    expect((await profileOf(t, viewer, p5)).medianReplyMinutes).toBeNull();
  });
});
