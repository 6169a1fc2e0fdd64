import { MESSAGES, REFRESHED_TOKEN_HEADER } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  codeFrom,
  signUpStudent,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';

const decode = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

let seq = 0;
const freshEmail = (domain = 'msu.edu') => `acct${++seq}-${Date.now().toString(36)}@${domain}`;

describe.each(dialects)('accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object });

  describe('sign-up', () => {
    it('answers 201 and e-mails a 6-digit code in a text + HTML message', async () => {
      const email = freshEmail();
      const res = await post('/public/sign-up', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email,
        password: 'analytical-engine',
      });
      expect(res.statusCode).toBe(201);
      const mail = await t.mail.waitFor(email);
      expect(codeFrom(mail)).toBeGreaterThanOrEqual(100000);
      expect(mail.subject).toContain('MSU');
      expect(mail.text).toContain('10 minutes');
      expect(mail.text).toMatch(/did not sign up/);
      expect(mail.html).toContain(String(codeFrom(mail)));
    });

    it('says "Please give all details" when every field is empty', async () => {
      const res = await post('/public/sign-up', { firstName: '', lastName: '', email: '', password: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.giveAllDetails, code: 'VALIDATION' });
    });

    it('names the missing field', async () => {
      const res = await post('/public/sign-up', {
        firstName: 'A',
        lastName: '',
        email: freshEmail(),
        password: 'long-enough-pw',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.lastNameRequired);
    });

    it('refuses a password under 8 characters', async () => {
      const res = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: freshEmail(),
        password: 'short',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Password must be at least 8 characters');
    });

    it('refuses very common passwords', async () => {
      const res = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: freshEmail(),
        password: 'password123',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.passwordTooCommon);
    });

    it('allows only the configured university domains, subdomains included', async () => {
      const outside = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: freshEmail('gmail.com'),
        password: 'long-enough-pw',
      });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().message).toContain('@msu.edu');
      const lookalike = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: freshEmail('evilmsu.edu'),
        password: 'long-enough-pw',
      });
      expect(lookalike.statusCode).toBe(400);
      const sub = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: freshEmail('cse.msu.edu'),
        password: 'long-enough-pw',
      });
      expect(sub.statusCode).toBe(201);
    });

    it('answers 409 for an address that is already verified, compared trimmed and case-insensitively', async () => {
      const s = await signUpStudent(t);
      const res = await post('/public/sign-up', {
        firstName: 'A',
        lastName: 'B',
        email: `  ${s.email.toUpperCase()} `,
        password: 'long-enough-pw',
      });
      expect(res.statusCode).toBe(409);
    });

    it('answers 400, not 500, for a body that is not JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        headers: { 'content-type': 'application/json' },
        payload: '{oops',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.badJson);
    });
  });

  describe('verification codes', () => {
    const signUp = async () => {
      const email = freshEmail();
      await post('/public/sign-up', { firstName: 'V', lastName: 'W', email, password: 'long-enough-pw' });
      return { email, code: codeFrom(await t.mail.waitFor(email)) };
    };
    const wrong = (code: number) => (code === 999999 ? 100000 : code + 1);

    it('rejects a wrong code with the spec message and accepts the right one once', async () => {
      const { email, code } = await signUp();
      const bad = await post('/public/verify', { email, token: wrong(code) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(MESSAGES.verifyFailed);
      expect((await post('/public/verify', { email, token: code })).statusCode).toBe(200);
      expect((await post('/public/login', { email, password: 'long-enough-pw' })).statusCode).toBe(200);
    });

    it('accepts the code as a digit string too', async () => {
      const { email, code } = await signUp();
      expect((await post('/public/verify', { email, token: String(code) })).statusCode).toBe(200);
    });

    it('expires codes after 10 minutes', async () => {
      const { email, code } = await signUp();
      t.clock.advance(10 * 60_000 + 1);
      const res = await post('/public/verify', { email, token: code });
      expect(res.statusCode).toBe(400);
    });

    it('kills the code on the 5th wrong try, with the same answer as any wrong code', async () => {
      const { email, code } = await signUp();
      for (let i = 0; i < 4; i++)
        expect((await post('/public/verify', { email, token: wrong(code) })).statusCode).toBe(400);
      const fifth = await post('/public/verify', { email, token: wrong(code) });
      expect(fifth.json().message).toBe(MESSAGES.verifyFailed);
      expect((await post('/public/verify', { email, token: code })).statusCode).toBe(400);
    });

    it('a resent code replaces the old one; resend answers the same for unknown addresses', async () => {
      const { email, code } = await signUp();
      const resend = await post('/public/verify/resend', { email });
      expect(resend.statusCode).toBe(200);
      const fresh = codeFrom(await t.mail.waitFor(email, 1));
      if (fresh !== code) expect((await post('/public/verify', { email, token: code })).statusCode).toBe(400);
      expect((await post('/public/verify', { email, token: fresh })).statusCode).toBe(200);
      const unknown = await post('/public/verify/resend', { email: freshEmail() });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(resend.json());
    });

    it('rate-limits resends per account with 429 and Retry-After', async () => {
      const { email } = await signUp();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await post('/public/verify/resend', { email }));
      const limited = answers[3]!;
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json().message).toBe(MESSAGES.rateLimited);
    });
  });

  describe('login', () => {
    it('answers the token string: a JWT with sub = e-mail, exp in seconds and the user id', async () => {
      const s = await signUpStudent(t);
      const claims = decode(s.token);
      expect(claims.sub).toBe(s.email);
      expect(claims.uid).toBe(s.id);
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
      expect(claims.exp).toBeLessThan(Date.now() / 1000 + 31 * 24 * 3600);
    });

    it('answers 401 for a wrong password or an unknown address, with the same message', async () => {
      const s = await signUpStudent(t);
      const wrongPw = await post('/public/login', { email: s.email, password: 'not-the-password' });
      const unknown = await post('/public/login', { email: freshEmail(), password: 'not-the-password' });
      expect(wrongPw.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrongPw.json().message).toBe(MESSAGES.loginIncorrect);
      expect(unknown.json()).toEqual(wrongPw.json());
    });

    it('answers 403 to an unverified account, sending the student to verify', async () => {
      const email = freshEmail();
      await post('/public/sign-up', { firstName: 'U', lastName: 'V', email, password: 'long-enough-pw' });
      const res = await post('/public/login', { email, password: 'long-enough-pw' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.loginUnverified, code: 'UNVERIFIED' });
    });
  });

  describe('password reset', () => {
    it('answers true whether or not the account exists, and mails only real accounts', async () => {
      const s = await signUpStudent(t);
      const nobody = freshEmail();
      const a = await post('/public/password/forgot', { email: s.email });
      const b = await post('/public/password/forgot', { email: nobody });
      expect(a.statusCode).toBe(200);
      expect(a.body).toBe('true');
      expect(b.body).toBe('true');
      await t.mail.waitFor(s.email, 1);
      expect(t.mail.count(nobody)).toBe(0);
    });

    it('resets with the code, revokes every earlier token, and the code works once', async () => {
      const s = await signUpStudent(t);
      await post('/public/password/forgot', { email: s.email });
      const mail = await t.mail.waitFor(s.email, 1);
      expect(mail.text).toMatch(/did not ask to reset/);
      const code = codeFrom(mail);
      const short = await post('/public/password/forgot/verify', {
        email: s.email,
        token: code,
        newPassword: 'short',
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe(MESSAGES.newPasswordTooShort);
      const ok = await post('/public/password/forgot/verify', {
        email: s.email,
        token: code,
        newPassword: 'brand-new-secret',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('Password Change Successful');
      const again = await post('/public/password/forgot/verify', {
        email: s.email,
        token: code,
        newPassword: 'another-secret-1',
      });
      expect(again.statusCode).toBe(400);
      expect((await asStudent(t, s, { method: 'GET', url: '/users/info' })).statusCode).toBe(401);
      expect((await post('/public/login', { email: s.email, password: s.password })).statusCode).toBe(401);
      expect((await post('/public/login', { email: s.email, password: 'brand-new-secret' })).statusCode).toBe(
        200,
      );
    });

    it('refuses a code sent to another account', async () => {
      const a = await signUpStudent(t);
      const b = await signUpStudent(t);
      await post('/public/password/forgot', { email: a.email });
      const code = codeFrom(await t.mail.waitFor(a.email, 1));
      const res = await post('/public/password/forgot/verify', {
        email: b.email,
        token: code,
        newPassword: 'hijacked-secret',
      });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('password change', () => {
    it('keeps the changing session logged in and logs out every other session', async () => {
      const s = await signUpStudent(t);
      const otherSession = (await post('/public/login', { email: s.email, password: s.password })).body;
      const res = await asStudent(t, s, {
        method: 'PUT',
        url: '/users/password/change',
        payload: { currentPassword: s.password, newPassword: 'changed-secret-77' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('Changed password');
      const fresh = res.headers[REFRESHED_TOKEN_HEADER] as string;
      expect((await asStudent(t, { token: fresh }, { method: 'GET', url: '/users/info' })).statusCode).toBe(
        200,
      );
      expect(
        (await asStudent(t, { token: otherSession }, { method: 'GET', url: '/users/info' })).statusCode,
      ).toBe(401);
      expect((await asStudent(t, s, { method: 'GET', url: '/users/info' })).statusCode).toBe(401);
    });

    it('answers 400 with a message for a wrong current password', async () => {
      const s = await signUpStudent(t);
      const res = await asStudent(t, s, {
        method: 'PUT',
        url: '/users/password/change',
        payload: { currentPassword: 'not-my-password', newPassword: 'changed-secret-77' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.currentPasswordWrong);
    });
  });

  describe('user info and tokens', () => {
    it('shows the caller their own details, and never another student their e-mail', async () => {
      const a = await signUpStudent(t, { firstName: 'Alice', lastName: 'Green' });
      const b = await signUpStudent(t);
      const own = await asStudent(t, a, {
        method: 'GET',
        url: `/users/info?email=${encodeURIComponent(a.email.toUpperCase())}`,
      });
      expect(own.json()).toEqual({ id: a.id, firstName: 'Alice', lastName: 'Green', email: a.email });
      const other = await asStudent(t, b, {
        method: 'GET',
        url: `/users/info?email=${encodeURIComponent(a.email)}`,
      });
      expect(other.statusCode).toBe(403);
      const pub = await asStudent(t, b, { method: 'GET', url: `/users/${a.id}` });
      expect(pub.json()).toEqual({ id: a.id, firstName: 'Alice', lastName: 'Green' });
      expect((await asStudent(t, b, { method: 'GET', url: '/users/99999999' })).statusCode).toBe(404);
      expect((await asStudent(t, b, { method: 'GET', url: '/users/abc' })).statusCode).toBe(400);
    });

    it('answers 401 for a missing, malformed, tampered or expired token', async () => {
      const s = await signUpStudent(t);
      const url = '/users/info';
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await asStudent(t, { token: 'not-a-jwt' }, { method: 'GET', url })).statusCode).toBe(401);
      const [h, p, sig] = s.token.split('.');
      const forged = Buffer.from(JSON.stringify({ ...decode(s.token), uid: s.id + 1 })).toString('base64url');
      expect(
        (await asStudent(t, { token: `${h}.${forged}.${sig}` }, { method: 'GET', url })).statusCode,
      ).toBe(401);
      expect(p).toBeTruthy();
      t.clock.advance(8 * 24 * 3600 * 1000);
      const expired = await asStudent(t, s, { method: 'GET', url });
      t.clock.advance(-8 * 24 * 3600 * 1000);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe(MESSAGES.unauthorized);
    });
  });

  describe('health', () => {
    it('reports the process up and the database reachable', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
        status: 'ready',
        database: dialect,
      });
    });
  });
});

describe('rate limits on public auth calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      rateLimits: {
        'login:account-ip': { points: 2, durationSeconds: 60 },
        'forgot:ip': { points: 2, durationSeconds: 60 },
      },
    });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once one address has failed too often for one account', async () => {
    const s = await signUpStudent(t);
    const codes = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/public/login',
            payload: { email: s.email, password: 'wrong-password' },
          })
        ).statusCode,
      );
    }
    // Only failures count (2 points); signUpStudent's successful login did not.
    expect(codes).toEqual([401, 401, 429, 429]);
  });

  it('answers 429 per IP on forgot-password', async () => {
    const codes = [];
    for (let i = 0; i < 3; i++) {
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/public/password/forgot',
            payload: { email: freshEmail() },
          })
        ).statusCode,
      );
    }
    expect(codes).toEqual([200, 200, 429]);
  });
});
