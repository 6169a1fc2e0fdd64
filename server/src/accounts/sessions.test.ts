/** Sessions: login's token, who may read whose details, the tokens refused, and health. */
import { MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, signUpStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { freshEmail, postJson } from './testing.js';

const decode = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe.each(dialects)('login, tokens and health on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => void (t = await createTestApp({ dialect })));
  afterAll(() => t.close());

  const post = (url: string, payload: unknown) => postJson(t, url, payload);

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
