import type { Listing } from '@campus/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent as injectAs,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { overSocket, type Answer } from '../../test/socket-client.js';
import { RenderedListings } from './personalise.js';
import { postListing, validFields } from './testing.js';

const transports = dialects.flatMap((dialect) => [
  [dialect, 'inject'],
  [dialect, 'socket'],
]) as Array<[(typeof dialects)[number], 'inject' | 'socket']>;

/**
 * The in-memory fast path of hot reads (token cache, cached saves and blocks, cached UTF-8 bodies):
 * every read below follows a read that warmed those caches, so it is the fast path that must see
 * each write at once and tell students apart. Over a socket, that path is the fast lane before
 * routing; injected, it is the route's own.
 */
describe.each(transports)('hot reads answered from memory (%s, %s)', (dialect, transport) => {
  let t: TestApp;
  let alice: Student;
  let bob: Student;
  let carol: Student;
  let listing: Listing;
  let socket: ReturnType<typeof overSocket> | undefined;
  const asStudent = (student: Pick<Student, 'token'>, options: InjectOptions): Promise<Answer> =>
    socket ? socket.as(student, options) : injectAs(t, student, options);

  const read = async (student: Student, url: string) => {
    // Twice: the first warms the caches, the second is the answer from memory.
    await asStudent(student, { method: 'GET', url });
    return asStudent(student, { method: 'GET', url });
  };
  const recentIds = async (student: Student) =>
    ((await read(student, '/listings/recent')).json() as Listing[]).map((l) => l.id);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    if (transport === 'socket') {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      socket = overSocket(t);
    }
    [alice, bob, carol] = [await createStudent(t), await createStudent(t), await createStudent(t)];
    listing = await postListing(t, alice, validFields({ name: 'Desk lamp' }));
  });
  afterAll(async () => {
    socket?.agent.destroy();
    await t.close();
  });

  it('sends the same bytes and headers as the JSON it stands for', async () => {
    const res = await read(bob, `/listing/${listing.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.json()).toMatchObject({ id: listing.id, name: 'Desk lamp', savedByMe: false });
  });

  it('an edit shows on the next read of the listing and of the recent page', async () => {
    await read(bob, `/listing/${listing.id}`);
    await read(bob, '/listings/recent');
    const edit = await asStudent(alice, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: { name: 'Brass desk lamp' },
    });
    expect(edit.statusCode).toBe(200);
    const one = await asStudent(bob, { method: 'GET', url: `/listing/${listing.id}` });
    expect((one.json() as Listing).name).toBe('Brass desk lamp');
    const page = await asStudent(bob, { method: 'GET', url: '/listings/recent' });
    expect((page.json() as Listing[]).find((l) => l.id === listing.id)?.name).toBe('Brass desk lamp');
  });

  it('a save shows as savedByMe for the saver at once, not for another student; the seller sees the count', async () => {
    await read(bob, `/listing/${listing.id}`);
    await read(carol, `/listing/${listing.id}`);
    const saved = await asStudent(bob, { method: 'PUT', url: `/listings/${listing.id}/save` });
    expect(saved.statusCode).toBe(200);
    const bobs = await asStudent(bob, { method: 'GET', url: `/listing/${listing.id}` });
    expect((bobs.json() as Listing).savedByMe).toBe(true);
    const bobsPage = (await asStudent(bob, { method: 'GET', url: '/listings/recent' })).json() as Listing[];
    expect(bobsPage.find((l) => l.id === listing.id)?.savedByMe).toBe(true);
    const carols = await asStudent(carol, { method: 'GET', url: `/listing/${listing.id}` });
    expect((carols.json() as Listing).savedByMe).toBe(false);
    expect((carols.json() as Listing).saveCount).toBeUndefined();
    const alices = await read(alice, `/listing/${listing.id}`);
    expect((alices.json() as Listing).saveCount).toBe(1);
    await asStudent(bob, { method: 'DELETE', url: `/listings/${listing.id}/save` });
    const after = await asStudent(bob, { method: 'GET', url: `/listing/${listing.id}` });
    expect((after.json() as Listing).savedByMe).toBe(false);
  });

  it('a block hides the seller from the blocker on the next read, and only from the blocker', async () => {
    expect(await recentIds(carol)).toContain(listing.id);
    expect((await read(carol, `/listing/${listing.id}`)).statusCode).toBe(200);
    const block = await asStudent(carol, { method: 'PUT', url: `/users/${alice.id}/block` });
    expect(block.statusCode).toBeLessThan(300);
    expect((await asStudent(carol, { method: 'GET', url: `/listing/${listing.id}` })).statusCode).toBe(404);
    expect(await recentIds(carol)).not.toContain(listing.id);
    expect(await recentIds(bob)).toContain(listing.id);
    await asStudent(carol, { method: 'DELETE', url: `/users/${alice.id}/block` });
    expect((await asStudent(carol, { method: 'GET', url: `/listing/${listing.id}` })).statusCode).toBe(200);
  });

  it('a token is refused on the next read once revoked, and a bad or missing one always', async () => {
    const dave = await createStudent(t);
    expect((await read(dave, '/listings/recent')).statusCode).toBe(200);
    const changed = await asStudent(dave, {
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: dave.password, newPassword: 'a-brand-new-passphrase-77' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await asStudent(dave, { method: 'GET', url: '/listings/recent' })).statusCode).toBe(401);
    expect(
      (await asStudent({ token: 'not-a-token' }, { method: 'GET', url: '/listings/recent' })).statusCode,
    ).toBe(401);
    const anonymous = { method: 'GET', url: `/listing/${listing.id}` } as const;
    expect((socket ? await socket.anonymous(anonymous) : await t.app.inject(anonymous)).statusCode).toBe(401);
  });

  it('GET routes do not parse multipart bodies; upload routes still do', async () => {
    const before = (await asStudent(bob, { method: 'GET', url: '/listings/self' })).json() as Listing[];
    await postListing(t, bob, validFields({ name: 'Uploaded after scoping' }));
    const after = (await asStudent(bob, { method: 'GET', url: '/listings/self' })).json() as Listing[];
    expect(after.length).toBe(before.length + 1);
  });
});

describe('Personaliser.bodyNow', () => {
  let t: TestApp;
  let alice: Student;
  let bob: Student;
  let listing: Listing;

  beforeAll(async () => {
    t = await createTestApp();
    [alice, bob] = [await createStudent(t), await createStudent(t)];
    // As the hot cache holds it: the shared rendering, no per-caller fields.
    listing = await t.app.listings.service.get(alice.campusId, (await postListing(t, alice)).id);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers from memory only when nothing needs a read, with the bytes `body` gives', async () => {
    const p = t.app.listings.personaliser;
    const rendered = new RenderedListings([listing], false);
    const viewer = { userId: bob.id, email: bob.email, tokenVersion: 0, campusId: 1 };
    p.forget(bob.id);
    expect(p.bodyNow(rendered, viewer)).toBeUndefined();
    const body = await p.body(rendered, viewer);
    const now = p.bodyNow(rendered, viewer);
    expect(Buffer.isBuffer(now)).toBe(true);
    expect(now?.toString()).toBe(body);
    // The seller's counts are read fresh: never from memory.
    await p.body(rendered, { userId: alice.id, email: alice.email, tokenVersion: 0, campusId: 1 });
    expect(
      p.bodyNow(rendered, { userId: alice.id, email: alice.email, tokenVersion: 0, campusId: 1 }),
    ).toBeUndefined();
    // Who holds a RESERVED listing is read fresh too.
    const reserved = new RenderedListings([{ ...listing, status: 'RESERVED' }], false);
    expect(p.bodyNow(reserved, viewer)).toBeUndefined();
  });
});
