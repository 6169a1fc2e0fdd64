import { MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { multipart, postListing, validFields } from './testing.js';

type Who = 'owner' | 'other' | 'none';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RouteCase {
  method: Method;
  url: (id: number) => string;
  body?: () => ReturnType<typeof multipart>;
  /** Expected status per caller. */
  expect: Record<Who, number>;
}

const READ = { owner: 200, other: 200, none: 401 };
const OWNER_ONLY = { owner: 200, other: 403, none: 401 };

const ROUTES: RouteCase[] = [
  {
    method: 'POST',
    url: () => '/listing',
    body: () => multipart(validFields()),
    expect: { owner: 201, other: 201, none: 401 },
  },
  {
    method: 'POST',
    url: () => '/listing/new',
    body: () => multipart(validFields()),
    expect: { owner: 201, other: 201, none: 401 },
  },
  { method: 'GET', url: () => '/listings', expect: READ },
  { method: 'GET', url: () => '/listings/recent', expect: READ },
  { method: 'GET', url: () => '/listings/BOOKS', expect: READ },
  { method: 'GET', url: () => '/listings/filters?categories=BOOKS&priceMin=0&priceMax=15', expect: READ },
  { method: 'GET', url: () => '/listings/search?query=lamp', expect: READ },
  { method: 'GET', url: () => '/listings/self', expect: READ },
  { method: 'GET', url: (id) => `/listing/${id}`, expect: READ },
  { method: 'PUT', url: (id) => `/listings/sold/${id}`, expect: OWNER_ONLY },
  { method: 'DELETE', url: (id) => `/listing/${id}`, expect: OWNER_ONLY },
];

describe.each(dialects)('listing routes: authorization matrix (%s)', (dialect) => {
  let t: TestApp;
  let owner: Student;
  let other: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    owner = await createStudent(t);
    other = await createStudent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const cases = ROUTES.flatMap((route) =>
    (['owner', 'other', 'none'] as Who[]).map((who) => ({ route, who })),
  );

  it.each(cases.map((c) => [`${c.route.method} ${c.route.url(0)}`, c.who, c] as const))(
    '%s as %s',
    async (_l, who, { route }) => {
      const listing = await postListing(
        t,
        owner,
        validFields({ name: 'Desk lamp', category: 'BOOKS', price: '10' }),
      );
      const url = route.url(listing.id);
      const body = route.body?.() ?? {};
      const caller = who === 'owner' ? owner : who === 'other' ? other : null;
      const res = caller
        ? await asStudent(t, caller, { method: route.method, url, ...body })
        : await t.app.inject({ method: route.method, url, ...body });
      expect(res.statusCode).toBe(route.expect[who]);
      if (res.statusCode === 401)
        expect(res.json()).toEqual({ message: MESSAGES.unauthorized, code: 'UNAUTHORIZED' });
      if (res.statusCode === 403) {
        expect(res.json()).toEqual({ message: MESSAGES.notYourListing, code: 'FORBIDDEN' });
        // Refused means unchanged.
        const after = (
          await asStudent(t, owner, { method: 'GET', url: `/listing/${listing.id}` })
        ).json() as Listing;
        expect(after).toEqual(listing);
      }
    },
  );

  it('a password change logs out the old token on listing routes at once, even when it was just used', async () => {
    const student = await createStudent(t);
    expect((await asStudent(t, student, { method: 'GET', url: '/listings' })).statusCode).toBe(200);
    const change = await asStudent(t, student, {
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: student.password, newPassword: 'a-brand-new-passphrase-77' },
    });
    expect(change.statusCode).toBe(200);
    expect((await asStudent(t, student, { method: 'GET', url: '/listings' })).statusCode).toBe(401);
  });

  it('an expired token is refused even when it was just used', async () => {
    const student = await createStudent(t);
    expect((await asStudent(t, student, { method: 'GET', url: '/listings' })).statusCode).toBe(200);
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    try {
      expect((await asStudent(t, student, { method: 'GET', url: '/listings' })).statusCode).toBe(401);
    } finally {
      t.clock.advance(-8 * 24 * 60 * 60 * 1000);
    }
  });

  it('refuses a malformed or forged token with 401', async () => {
    for (const authorization of ['Bearer nonsense', 'Basic abc', `Bearer ${owner.token}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/listings', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
  });
});
