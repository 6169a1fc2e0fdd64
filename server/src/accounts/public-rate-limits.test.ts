/** Rate limits of the public account calls: failed logins per account and address, forgot per IP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpStudent, createTestApp, type TestApp } from '../../test/helper.js';
import { freshEmail } from './testing.js';

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
