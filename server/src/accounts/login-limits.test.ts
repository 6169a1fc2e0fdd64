import { AUTH_ERROR_CODES, AUTH_MESSAGES, MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeFrom,
  signUpStudent,
  createTestApp,
  dialects,
  redisUrl,
  type TestApp,
} from '../../test/helper.js';

let seq = 0;
const freshEmail = () => `lim${++seq}-${Date.now().toString(36)}@msu.edu`;

describe.each(dialects)('login failures never lock the owner out (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      redis: !!redisUrl,
      rateLimits: {
        'login:ip': { points: 12, durationSeconds: 900 },
        'login:account-ip': { points: 10, durationSeconds: 900 },
        'login:account': { points: 25, durationSeconds: 86_400 },
      },
    });
  });
  afterAll(() => t.close());

  const login = (ip: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/public/login', payload, remoteAddress: ip });

  it('ten wrong passwords from one address block that address, not the owner on another network', async () => {
    const s = await signUpStudent(t);
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await login('198.51.100.7', { email: s.email, password: `guess-number-${i}` })).statusCode,
      ).toBe(401);
    }
    const blocked = await login('198.51.100.7', { email: s.email, password: s.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from their own network, logs in at once.
    const owner = await login('203.0.113.20', { email: s.email, password: s.password });
    expect(owner.statusCode).toBe(200);
  });

  it('counts failures per client address across accounts', async () => {
    const victims = await Promise.all([signUpStudent(t), signUpStudent(t)]);
    for (let i = 0; i < 12; i += 1) {
      const email = i % 2 ? victims[0]!.email : freshEmail();
      expect((await login('198.51.100.99', { email, password: 'spray-password' })).statusCode).toBe(401);
    }
    const next = await login('198.51.100.99', { email: victims[1]!.email, password: victims[1]!.password });
    expect(next.statusCode).toBe(429);
    expect(
      (await login('203.0.113.21', { email: victims[1]!.email, password: victims[1]!.password })).statusCode,
    ).toBe(200);
  });

  it('past the slow per-account ceiling, a login also needs a code e-mailed to the owner — never a hard lock', async () => {
    const s = await signUpStudent(t);
    const unknown = freshEmail();
    // Distributed guessing: 25 failures from 25 addresses, none of them blocked on its own.
    for (let i = 0; i < 25; i += 1) {
      const ip = `192.0.2.${i + 1}`;
      expect((await login(ip, { email: s.email, password: `guessing-${i}` })).statusCode).toBe(401);
      expect((await login(ip, { email: unknown, password: `guessing-${i}` })).statusCode).toBe(401);
    }
    const mailsBefore = t.mail.count(s.email);
    // Right or wrong password, known or unknown address: the same answer, so guessing learns nothing.
    const right = await login('203.0.113.50', { email: s.email, password: s.password });
    const wrongPw = await login('192.0.2.200', { email: s.email, password: 'yet-another-guess' });
    const nobody = await login('192.0.2.201', { email: unknown, password: 'yet-another-guess' });
    const expected = { message: AUTH_MESSAGES.loginCodeRequired, code: AUTH_ERROR_CODES.loginCodeRequired };
    for (const r of [right, wrongPw, nobody]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual(expected);
    }
    // One code e-mailed to the owner (not one per attempt).
    const mail = await t.mail.waitFor(s.email, mailsBefore);
    expect(mail.subject).toContain('login code');
    const code = codeFrom(mail);
    await t.app.ctx.jobs.runDue();
    expect(t.mail.count(s.email)).toBe(mailsBefore + 1);

    // A guesser without the mailbox: a wrong code never reveals whether the password was right.
    const badCode = await login('192.0.2.202', {
      email: s.email,
      password: s.password,
      code: code === 999999 ? 100000 : code + 1,
    });
    expect(badCode.statusCode).toBe(401);
    expect(badCode.json().message).toBe(AUTH_MESSAGES.loginCodeInvalid);
    // The owner with the code and the password gets in.
    const owner = await login('203.0.113.50', { email: s.email, password: s.password, code });
    expect(owner.statusCode).toBe(200);
    expect(owner.body.split('.')).toHaveLength(3);
  });

  it('keeps answering the usual 401 below the ceiling', async () => {
    const s = await signUpStudent(t);
    const r = await login('203.0.113.77', { email: s.email, password: 'not-it-at-all' });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe(MESSAGES.loginIncorrect);
  });
});
