import { SSO_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCampus } from '../db/campus-scope.js';
import { createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { startTestIdp, type TestIdp } from '../../test/oidc-provider.js';
import {
  arriveAt,
  campusesWithSso,
  exchangeCodeOf,
  msuCallback,
  signInThrough,
  startOidcSignIn,
  startSignIn,
} from '../../test/sso.js';

/** A refusal is a page a person reads (not JSON), with the reason and a way back. */
function expectPage(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  message: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  const escaped = message.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
  expect(res.body).toContain(escaped);
  expect(res.body).toContain(`href="http://market.test/login"`);
  // The app's header: its name links home.
  expect(res.body).toMatch(
    /<header>.*<a class="home" href="http:\/\/market\.test\/" aria-label="CampusMarket [^"]*home">/s,
  );
  expect(res.headers.location).toBeUndefined();
}

describe.each(dialects)('university sign-in refusals over OIDC (%s)', (dialect) => {
  let idp: TestIdp;
  let t: TestApp;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => void ({ idp, t, close } = await startOidcSignIn({ dialect })));
  afterAll(() => close?.());

  const accountOf = (email: string) =>
    t.app.ctx.db.kysely
      .selectFrom('users')
      .select(['id', 'verified_at'])
      .where('email', '=', email)
      .executeTakeFirst();
  const student = (login: string, email: string, affiliation = ['student@msu.edu']) =>
    idp.accounts.set(login, {
      email,
      given_name: 'A',
      family_name: 'B',
      eduperson_scoped_affiliation: affiliation,
    });

  it('refuses a callback whose state was altered (or is unknown)', async () => {
    student('state', 'state@msu.edu');
    const started = await startSignIn(t);
    const callback = await idp.signIn(started.location, 'state');
    callback.searchParams.set('state', 'forged-state-value-0123456789');
    expectPage(await arriveAt(t, callback, started.cookie), 400, SSO_MESSAGES.stateInvalid);
    expect(await accountOf('state@msu.edu')).toBeUndefined();
  });

  it('refuses a callback arriving in another browser than the one that started (login CSRF)', async () => {
    student('csrf', 'csrf@msu.edu');
    const started = await startSignIn(t);
    const callback = await idp.signIn(started.location, 'csrf');
    expectPage(await arriveAt(t, callback, ''), 400, SSO_MESSAGES.stateInvalid);
    const other = await startSignIn(t);
    expectPage(await arriveAt(t, callback, other.cookie), 400, SSO_MESSAGES.stateInvalid);
    expect(await accountOf('csrf@msu.edu')).toBeUndefined();
  });

  it('a callback works once: the same callback again is refused', async () => {
    student('replayed', 'replayed@msu.edu');
    const started = await startSignIn(t);
    const callback = await idp.signIn(started.location, 'replayed');
    exchangeCodeOf(await arriveAt(t, callback, started.cookie));
    expectPage(await arriveAt(t, callback, started.cookie), 400, SSO_MESSAGES.stateInvalid);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    student('nonce', 'nonce@msu.edu');
    const started = await startSignIn(t);
    // The request reaches the provider with another nonce (as if swapped on the way).
    const tampered = new URL(started.location);
    tampered.searchParams.set('nonce', 'a-nonce-this-app-never-sent');
    const callback = await idp.signIn(tampered.href, 'nonce');
    expectPage(await arriveAt(t, callback, started.cookie), 400, SSO_MESSAGES.responseInvalid);
    expect(await accountOf('nonce@msu.edu')).toBeUndefined();
  });

  it("checks the ID token's expiry against the app's clock", async () => {
    student('clock', 'clock@msu.edu');
    // The app's clock is two hours ahead of the provider's: its one-hour ID token has expired.
    const real = t.clock.nowMs;
    t.clock.nowMs = real + 2 * 3600_000;
    try {
      const started = await startSignIn(t);
      const callback = await idp.signIn(started.location, 'clock');
      expectPage(await arriveAt(t, callback, started.cookie), 400, SSO_MESSAGES.responseInvalid);
    } finally {
      t.clock.nowMs = real;
    }
    expect(await accountOf('clock@msu.edu')).toBeUndefined();
  });

  it('tells the student when the university refused or they cancelled', async () => {
    const started = await startSignIn(t);
    const state = new URL(started.location).searchParams.get('state') ?? '';
    const callback = new URL(msuCallback);
    callback.search = new URLSearchParams({ error: 'access_denied', state, iss: idp.issuer }).toString();
    expectPage(await arriveAt(t, callback, started.cookie), 400, SSO_MESSAGES.idpRefused);
  });

  it('refuses an address outside the campus and an address of another campus', async () => {
    student('gmail', 'someone@gmail.com');
    expectPage(
      await signInThrough(t, idp, 'gmail'),
      403,
      SSO_MESSAGES.emailOutsideCampus('MSU', ['msu.edu']),
    );
    expect(await accountOf('someone@gmail.com')).toBeUndefined();
    student('husky', 'husky@uw.edu', ['student@uw.edu']);
    expectPage(
      await signInThrough(t, idp, 'husky'),
      403,
      SSO_MESSAGES.emailOfAnotherCampus('MSU', 'University of Washington'),
    );
    expect(await accountOf('husky@uw.edu')).toBeUndefined();
  });

  it('refuses an address the provider says is not verified, or none', async () => {
    idp.accounts.set('unverified', {
      email: 'unverified@msu.edu',
      email_verified: false,
      eduperson_scoped_affiliation: ['student'],
    });
    expectPage(await signInThrough(t, idp, 'unverified'), 403, SSO_MESSAGES.emailMissing);
    idp.accounts.set('noemail', { given_name: 'No', eduperson_scoped_affiliation: ['student'] });
    expectPage(await signInThrough(t, idp, 'noemail'), 403, SSO_MESSAGES.emailMissing);
    expect(await accountOf('unverified@msu.edu')).toBeUndefined();
  });

  it('a non-student gets a page saying why; their account and status stay as they were', async () => {
    const alum = await createStudent(t);
    const before = await accountOf(alum.email);
    t.clock.advance(5_000);
    student('alum', alum.email, ['alum@msu.edu', 'member@msu.edu']);
    expectPage(await signInThrough(t, idp, 'alum'), 403, SSO_MESSAGES.notAStudent('MSU'));
    expect(await accountOf(alum.email)).toEqual(before);
    // No affiliation at all, or a student of another institution, is no student of this campus.
    student('none', 'none@msu.edu', []);
    expectPage(await signInThrough(t, idp, 'none'), 403, SSO_MESSAGES.notAStudent('MSU'));
    student('elsewhere', 'elsewhere@msu.edu', ['student@uw.edu']);
    expectPage(await signInThrough(t, idp, 'elsewhere'), 403, SSO_MESSAGES.notAStudent('MSU'));
    expect(await accountOf('none@msu.edu')).toBeUndefined();
    expect(await accountOf('elsewhere@msu.edu')).toBeUndefined();
  });

  it('a suspended student is refused as login refuses them', async () => {
    const banned = await createStudent(t);
    await inCampus(banned.campusId, () =>
      t.app.ctx.db.kysely
        .updateTable('users')
        .set({ suspended_at: t.clock.now(), suspended_until: null, suspension_reason: 'Scam listings' })
        .where('id', '=', banned.id)
        .execute(),
    );
    student('banned', banned.email);
    const res = await signInThrough(t, idp, 'banned');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Scam listings');
    expect(res.headers.location).toBeUndefined();
  });

  it('a campus that is unknown or has no university sign-in answers a 404 page; metadata only for SAML', async () => {
    for (const url of [
      '/auth/sso/nowhere/start',
      '/auth/sso/uw/start',
      '/auth/sso/uw/callback?code=x&state=y',
    ]) {
      expectPage(await t.app.inject({ method: 'GET', url }), 404, SSO_MESSAGES.notOffered);
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/auth/sso/uw/callback',
      payload: 'SAMLResponse=abc&RelayState=def',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectPage(post, 404, SSO_MESSAGES.notOffered);
    const oidcMetadata = await t.app.inject({ method: 'GET', url: '/auth/sso/msu/metadata' });
    expect(oidcMetadata.statusCode).toBe(404);
    expect(oidcMetadata.json().message).toBe(SSO_MESSAGES.noMetadata);
    expect((await t.app.inject({ method: 'GET', url: '/auth/sso/uw/metadata' })).statusCode).toBe(404);
  });
});

describe.each(dialects)(
  'university sign-in against a provider that cannot be trusted or reached (%s)',
  (dialect) => {
    it('refuses an ID token signed by another key than the issuer publishes', async () => {
      const { idp, t, close } = await startOidcSignIn({ dialect }, { publishWrongKey: true });
      try {
        idp.accounts.set('forged', {
          email: 'forged@msu.edu',
          eduperson_scoped_affiliation: ['student@msu.edu'],
        });
        expectPage(await signInThrough(t, idp, 'forged'), 400, SSO_MESSAGES.responseInvalid);
        const row = await t.app.ctx.db.kysely
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'forged@msu.edu')
          .executeTakeFirst();
        expect(row).toBeUndefined();
      } finally {
        await close();
      }
    });

    it('answers a 503 page when the university cannot be reached', async () => {
      const idp = await startTestIdp({ redirectUris: [msuCallback] });
      const unreachable = {
        issuer: 'http://127.0.0.1:9',
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
      };
      const t = await createTestApp({ dialect, env: campusesWithSso(unreachable) });
      try {
        expectPage(
          await t.app.inject({ method: 'GET', url: '/auth/sso/msu/start' }),
          503,
          SSO_MESSAGES.unavailable('MSU'),
        );
      } finally {
        await t.close();
        await idp.close();
      }
    });
  },
);

describe('university sign-in is rate limited per client address', () => {
  it('answers a 429 page once one address has started too many sign-ins', async () => {
    const { t, close } = await startOidcSignIn({
      rateLimits: { 'sso:ip': { points: 2, durationSeconds: 900 } },
    });
    try {
      await startSignIn(t);
      await startSignIn(t);
      const third = await t.app.inject({ method: 'GET', url: '/auth/sso/msu/start' });
      expect(third.statusCode).toBe(429);
      expect(String(third.headers['content-type'])).toMatch(/^text\/html/);
      expect(third.headers.location).toBeUndefined();
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});

describe.each(dialects)('expired sign-in rows (%s)', (dialect) => {
  it('are swept by the job an hour after a sign-in started', async () => {
    const { idp, t, close } = await startOidcSignIn({ dialect, jobWorker: false });
    try {
      const pending = () =>
        t.app.ctx.db.kysely
          .selectFrom('sso_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
      const abandoned = await startSignIn(t);
      expect(abandoned.location).toContain(idp.issuer);
      expect(Number((await pending()).n)).toBe(1);
      await t.app.ctx.jobs.runDue();
      expect(Number((await pending()).n)).toBe(1);
      t.clock.advance(61 * 60_000);
      await t.app.ctx.jobs.runDue();
      expect(Number((await pending()).n)).toBe(0);
    } finally {
      await close();
    }
  });
});
