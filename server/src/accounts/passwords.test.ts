/** Passwords: the e-mailed reset code, and a change that keeps only the changing session. */
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
import { freshEmail, postJson } from './testing.js';

describe.each(dialects)('password reset and change on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => void (t = await createTestApp({ dialect })));
  afterAll(() => t.close());

  const post = (url: string, payload: unknown) => postJson(t, url, payload);

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
});
