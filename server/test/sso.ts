import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { TEST_CAMPUSES, createTestApp, type TestApp, type TestAppOptions } from './helper.js';
import { startTestIdp, type TestIdp, type TestIdpOptions } from './oidc-provider.js';

/** The app's address in university sign-in tests: the redirect URI the test provider accepts. */
export const SSO_PUBLIC_URL = 'http://market.test';

export const msuCallback = `${SSO_PUBLIC_URL}/auth/sso/msu/callback`;

/** TEST_CAMPUSES with MSU signing in through `idp` (plus any campus settings given). */
export function campusesWithSso(
  idp: Pick<TestIdp, 'issuer' | 'clientId' | 'clientSecret'>,
  msu: object = {},
) {
  const [msuCampus, ...rest] = TEST_CAMPUSES;
  return {
    PUBLIC_URL: SSO_PUBLIC_URL,
    CAMPUSES: JSON.stringify([
      {
        ...msuCampus,
        sso: { type: 'oidc', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
        ...msu,
      },
      ...rest,
    ]),
  };
}

/** A test provider, an app whose MSU signs in through it, and the way to stop both. */
export interface OidcSignIn {
  idp: TestIdp;
  t: TestApp;
  close(): Promise<void>;
}

/**
 * The provider (accepting MSU's callback) and the app of the OIDC sign-in tests, MSU signing in
 * through it; `app` and `provider` add to what both are built with.
 */
export async function startOidcSignIn(
  app: TestAppOptions = {},
  provider: Omit<TestIdpOptions, 'redirectUris'> = {},
): Promise<OidcSignIn> {
  const idp = await startTestIdp({ ...provider, redirectUris: [msuCallback] });
  try {
    const t = await createTestApp({ ...app, env: { ...campusesWithSso(idp), ...app.env } });
    return {
      idp,
      t,
      async close() {
        await t.close();
        await idp.close();
      },
    };
  } catch (err) {
    await idp.close();
    throw err;
  }
}

export interface Started {
  /** The provider's authorization URL the app redirected to. */
  location: string;
  /** The browser-binding cookie, as a Cookie header. */
  cookie: string;
}

export async function startSignIn(t: TestApp, slug = 'msu'): Promise<Started> {
  const res = await t.app.inject({ method: 'GET', url: `/auth/sso/${slug}/start` });
  expect(res.statusCode, res.body).toBe(302);
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { location: String(res.headers.location), cookie: setCookie.split(';')[0] ?? '' };
}

/** The browser arriving back at the app from the provider. */
export function arriveAt(t: TestApp, callback: URL, cookie: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: cookie ? { cookie } : {},
  });
}

/** Start → the provider's own pages as `login` → back at the app: the callback's answer. */
export async function signInThrough(
  t: TestApp,
  idp: TestIdp,
  login: string,
): Promise<LightMyRequestResponse> {
  const started = await startSignIn(t);
  const callback = await idp.signIn(started.location, login);
  return arriveAt(t, callback, started.cookie);
}

/** The one-time code of a callback that ended at /sso/done#code=…. */
export function exchangeCodeOf(res: LightMyRequestResponse): string {
  expect(res.statusCode, res.body).toBe(302);
  const location = String(res.headers.location);
  expect(location.startsWith(`${SSO_PUBLIC_URL}/sso/done#code=`)).toBe(true);
  return decodeURIComponent(location.split('#code=')[1] ?? '');
}

export function exchange(t: TestApp, code: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/auth/sso/exchange', payload: { code } });
}
