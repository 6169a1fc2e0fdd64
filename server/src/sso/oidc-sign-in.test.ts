import { SSO_LIMITS, SSO_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, createStudent, dialects, type TestApp } from '../../test/helper.js';
import type { TestIdp } from '../../test/oidc-provider.js';
import { exchange, exchangeCodeOf, signInThrough, startOidcSignIn } from '../../test/sso.js';

describe.each(dialects)('university sign-in over OIDC (%s)', (dialect) => {
  let idp: TestIdp;
  let t: TestApp;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => void ({ idp, t, close } = await startOidcSignIn({ dialect })));
  afterAll(() => close?.());

  const userInfo = (token: string) =>
    t.app.inject({ method: 'GET', url: '/users/info', headers: { authorization: `Bearer ${token}` } });

  it('creates the account of a new student from what the university asserted, and logs them in', async () => {
    idp.accounts.set('sparty', {
      email: 'Sparty.New@MSU.edu',
      email_verified: true,
      given_name: 'Sparty',
      family_name: 'Green',
      eduperson_scoped_affiliation: ['member@msu.edu', 'student@msu.edu'],
    });
    const code = exchangeCodeOf(await signInThrough(t, idp, 'sparty'));
    const res = await exchange(t, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const token = res.body;
    const me = await userInfo(token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'sparty.new@msu.edu', firstName: 'Sparty', lastName: 'Green' });
    // The session is the campus's, like after an e-mail login.
    const campus = await t.app.inject({
      method: 'GET',
      url: '/public/campus',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(campus.json()).toMatchObject({ slug: 'msu' });
    // No password was ever set: logging in with one is refused like a wrong password.
    const login = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: 'sparty.new@msu.edu', password: 'anything-at-all-1' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('links an existing e-mail account of the same address, renews its status and takes the university names', async () => {
    const student = await createStudent(t, { firstName: 'Old', lastName: 'Name' });
    const before = await t.app.ctx.db.kysely
      .selectFrom('users')
      .select(['verified_at'])
      .where('id', '=', student.id)
      .executeTakeFirstOrThrow();
    // A little later (the provider keeps real time: the app clock may not run far ahead of it).
    t.clock.advance(5_000);
    idp.accounts.set('linked', {
      email: student.email,
      given_name: 'Renamed',
      family_name: 'ByMsu',
      eduperson_scoped_affiliation: ['student@msu.edu'],
    });
    const token = (await exchange(t, exchangeCodeOf(await signInThrough(t, idp, 'linked')))).body;
    const me = await userInfo(token);
    expect(me.json()).toMatchObject({ id: student.id, firstName: 'Renamed', lastName: 'ByMsu' });
    const after = await t.app.ctx.db.kysely
      .selectFrom('users')
      .select(['verified_at'])
      .where('id', '=', student.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.verified_at)).toBe(t.clock.now());
    expect(Number(after.verified_at)).toBeGreaterThan(Number(before.verified_at));
    // The e-mail password keeps working, and the earlier session too.
    const login = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: student.email, password: student.password },
    });
    expect(login.statusCode).toBe(200);
    expect((await userInfo(student.token)).statusCode).toBe(200);
  });

  it('a pending e-mail sign-up of the address loses its unproven password when the university vouches', async () => {
    const email = 'pending-signup@msu.edu';
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: { firstName: 'Someone', lastName: 'Else', email, password: 'typed-by-anyone-9' },
    });
    expect(signUp.statusCode).toBe(201);
    idp.accounts.set('pending', { email, eduperson_scoped_affiliation: ['student'] });
    const token = (await exchange(t, exchangeCodeOf(await signInThrough(t, idp, 'pending')))).body;
    expect((await userInfo(token)).json()).toMatchObject({ email });
    const login = await t.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email, password: 'typed-by-anyone-9' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('an account made by university sign-in can set a first password through "Forgot password"', async () => {
    const email = 'wants-password@msu.edu';
    idp.accounts.set('wants', { email, eduperson_scoped_affiliation: ['student@msu.edu'] });
    expect((await exchange(t, exchangeCodeOf(await signInThrough(t, idp, 'wants')))).statusCode).toBe(200);
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
    expect((await post('/public/password/forgot', { email })).statusCode).toBe(200);
    const code = codeFrom(await t.mail.waitFor(email));
    const set = await post('/public/password/forgot/verify', {
      email,
      token: code,
      newPassword: 'first-own-password-3',
    });
    expect(set.statusCode).toBe(200);
    const login = await post('/public/login', { email, password: 'first-own-password-3' });
    expect(login.statusCode).toBe(200);
  });

  it('the exchange code works once', async () => {
    idp.accounts.set('twice', { email: 'twice@msu.edu', eduperson_scoped_affiliation: ['student@msu.edu'] });
    const code = exchangeCodeOf(await signInThrough(t, idp, 'twice'));
    expect((await exchange(t, code)).statusCode).toBe(200);
    const again = await exchange(t, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(SSO_MESSAGES.exchangeInvalid);
  });

  it('the exchange code dies after 60 seconds', async () => {
    idp.accounts.set('late', { email: 'late@msu.edu', eduperson_scoped_affiliation: ['student@msu.edu'] });
    const code = exchangeCodeOf(await signInThrough(t, idp, 'late'));
    t.clock.advance(SSO_LIMITS.exchangeSeconds * 1000 + 1);
    const res = await exchange(t, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SSO_MESSAGES.exchangeInvalid);
  });

  it('an unknown or junk exchange code is a 400 with the message', async () => {
    for (const code of ['not-a-code', '', 'x'.repeat(500)]) {
      const res = await exchange(t, code);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(SSO_MESSAGES.exchangeInvalid);
    }
  });

  it('GET /public/campus offers the university sign-in of the campus, and none where there is none', async () => {
    const msu = await t.app.inject({ method: 'GET', url: '/public/campus' });
    expect(msu.json()).toMatchObject({
      slug: 'msu',
      sso: { type: 'oidc', label: 'Continue with MSU account' },
      ssoOnly: false,
    });
    const uw = await t.app.inject({
      method: 'GET',
      url: '/public/campus',
      headers: { host: 'market.uw.edu' },
    });
    expect(uw.json()).toMatchObject({ slug: 'uw', sso: null, ssoOnly: false });
    // Nothing secret of the configuration leaks into the public answer.
    expect(msu.body).not.toContain(idp.clientSecret);
  });
});
