/** Sign-up: the form's checks, the campus domains, and the e-mailed code that verifies it. */
import { MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, signUpStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { freshEmail, postJson } from './testing.js';

describe.each(dialects)('sign-up and verification on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => void (t = await createTestApp({ dialect })));
  afterAll(() => t.close());

  const post = (url: string, payload: unknown) => postJson(t, url, payload);
  /** POST /public/sign-up with a valid form but for `fields`. */
  const signUpWith = (fields: Record<string, string>) =>
    post('/public/sign-up', {
      firstName: 'A',
      lastName: 'B',
      email: freshEmail(),
      password: 'long-enough-pw',
      ...fields,
    });

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
      const res = await signUpWith({ lastName: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.lastNameRequired);
    });

    it('refuses a password under 8 characters', async () => {
      const res = await signUpWith({ password: 'short' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Password must be at least 8 characters');
    });

    it('refuses very common passwords', async () => {
      const res = await signUpWith({ password: 'password123' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.passwordTooCommon);
    });

    it('allows only the configured university domains, subdomains included', async () => {
      const outside = await signUpWith({ email: freshEmail('gmail.com') });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().message).toContain('@msu.edu');
      const lookalike = await signUpWith({ email: freshEmail('evilmsu.edu') });
      expect(lookalike.statusCode).toBe(400);
      const sub = await signUpWith({ email: freshEmail('cse.msu.edu') });
      expect(sub.statusCode).toBe(201);
    });

    it('answers 409 for an address that is already verified, compared trimmed and case-insensitively', async () => {
      const s = await signUpStudent(t);
      const res = await signUpWith({ email: `  ${s.email.toUpperCase()} ` });
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
});
