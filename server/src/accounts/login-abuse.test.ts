import { MESSAGES } from '@campus/contract';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import {
  codeFrom,
  signUpStudent,
  createTestApp,
  dialects,
  redisUrl,
  type TestApp,
} from '../../test/helper.js';

let seq = 0;
const freshEmail = () => `hard${++seq}-${Date.now().toString(36)}@msu.edu`;
const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';
const wrong = (code: number) => (code === 999999 ? 100000 : code + 1);

describe.each(dialects)('login and sign-up against guessing and abuse (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, redis: !!redisUrl });
  });
  afterAll(() => t.close());
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object });

  it('each code activates the password and names of the sign-up that sent it; the others die', async () => {
    const email = freshEmail();
    await post('/public/sign-up', {
      firstName: 'Real',
      lastName: 'Owner',
      email,
      password: 'owners-own-password',
    });
    const ownersCode = codeFrom(await t.mail.waitFor(email));
    // Someone else signs up with the same (still unverified) address afterwards.
    await post('/public/sign-up', {
      firstName: 'Mallory',
      lastName: 'X',
      email,
      password: 'attackers-password',
    });
    const attackersCode = codeFrom(await t.mail.waitFor(email, 1));

    // The owner enters the code from the first e-mail: their own password and names win.
    expect((await post('/public/verify', { email, token: ownersCode })).statusCode).toBe(200);
    expect((await post('/public/login', { email, password: 'attackers-password' })).statusCode).toBe(401);
    const login = await post('/public/login', { email, password: 'owners-own-password' });
    expect(login.statusCode).toBe(200);
    const info = await t.app.inject({
      method: 'GET',
      url: '/users/info',
      headers: { authorization: `Bearer ${login.body}` },
    });
    expect(info.json()).toMatchObject({ firstName: 'Real', lastName: 'Owner' });
    // The other sign-up's code is dead now.
    if (attackersCode !== ownersCode) {
      expect((await post('/public/verify', { email, token: attackersCode })).statusCode).toBe(400);
    }
    expect((await post('/public/login', { email, password: 'owners-own-password' })).statusCode).toBe(200);
  });

  it('a resent code keeps the details of the sign-up it replaces', async () => {
    const email = freshEmail();
    await post('/public/sign-up', {
      firstName: 'Res',
      lastName: 'End',
      email,
      password: 'resend-password-1',
    });
    const first = codeFrom(await t.mail.waitFor(email));
    await post('/public/verify/resend', { email });
    const fresh = codeFrom(await t.mail.waitFor(email, 1));
    if (fresh !== first) expect((await post('/public/verify', { email, token: first })).statusCode).toBe(400);
    expect((await post('/public/verify', { email, token: fresh })).statusCode).toBe(200);
    expect((await post('/public/login', { email, password: 'resend-password-1' })).statusCode).toBe(200);
  });

  it('a token without exp, or signed with another algorithm, is refused', async () => {
    const s = await signUpStudent(t);
    const key = new TextEncoder().encode(TEST_SECRET);
    const claims = { uid: s.id, tv: 0 };
    const noExp = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(s.email)
      .setIssuedAt()
      .sign(key);
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .setSubject(s.email)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const call = (token: string) =>
      t.app.inject({ method: 'GET', url: '/users/info', headers: { authorization: `Bearer ${token}` } });
    expect((await call(s.token)).statusCode).toBe(200);
    expect((await call(noExp)).statusCode).toBe(401);
    expect((await call(hs512)).statusCode).toBe(401);
  });

  it('forgot/verify refuses a common new password the same way whether or not the account exists', async () => {
    const s = await signUpStudent(t);
    const known = await post('/public/password/forgot/verify', {
      email: s.email,
      token: 123456,
      newPassword: 'password123',
    });
    const unknown = await post('/public/password/forgot/verify', {
      email: freshEmail(),
      token: 123456,
      newPassword: 'password123',
    });
    expect(known.statusCode).toBe(400);
    expect(known.json()).toEqual({ message: MESSAGES.passwordTooCommon, code: 'VALIDATION' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
  });

  it('a wrong code answers the same 400 for unknown, pending and verified addresses', async () => {
    const verified = await signUpStudent(t);
    const pending = freshEmail();
    await post('/public/sign-up', {
      firstName: 'P',
      lastName: 'Q',
      email: pending,
      password: 'pending-password',
    });
    const pendingCode = codeFrom(await t.mail.waitFor(pending));
    const answers = await Promise.all(
      [verified.email, pending, freshEmail()].map((email) =>
        post('/public/verify', { email, token: email === pending ? wrong(pendingCode) : 123456 }),
      ),
    );
    for (const a of answers) {
      expect(a.statusCode).toBe(400);
      expect(a.json()).toEqual({ message: MESSAGES.verifyFailed, code: 'VALIDATION' });
    }
    // The right code on an address it already verified still answers 200 (a double tap).
    expect((await post('/public/verify', { email: pending, token: pendingCode })).statusCode).toBe(200);
    expect((await post('/public/verify', { email: pending, token: pendingCode })).statusCode).toBe(200);
    expect((await post('/public/verify', { email: pending, token: wrong(pendingCode) })).statusCode).toBe(
      400,
    );
  });
});

/** A mailer that holds every message until released, like an SMTP server taking its time. */
class SlowMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  async send(message: MailMessage): Promise<void> {
    await this.gate;
    this.sent.push(message);
  }
  open(): void {
    this.release();
  }
  async close(): Promise<void> {
    this.release();
  }
}

describe.each(dialects)('forgot-password is no oracle (%s)', (dialect) => {
  it('answers before any mail goes out, with the same work and answer for known and unknown addresses', async () => {
    const mailer = new SlowMailer();
    const t = await createTestApp({ dialect, mailer, jobWorker: false });
    try {
      const s = await t.app.ctx.db.kysely
        .insertInto('users')
        .values({
          email: freshEmail(),
          first_name: 'K',
          last_name: 'N',
          password_hash: 'x',
          verified: 1,
          token_version: 0,
          created_at: t.clock.now(),
          campus_id: t.app.ctx.campuses.default.id,
        })
        .returning(['id', 'email'])
        .executeTakeFirstOrThrow();
      const unknown = freshEmail();
      const inTime = <T>(p: Promise<T>) =>
        Promise.race([
          p,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('waited for the mail')), 2000)),
        ]);
      const known = await inTime(post(t, '/public/password/forgot', { email: s.email }));
      const nobody = await inTime(post(t, '/public/password/forgot', { email: unknown }));
      expect([known.statusCode, known.body]).toEqual([200, 'true']);
      expect([nobody.statusCode, nobody.body]).toEqual([200, 'true']);
      // Before answering, both did the same thing: queue one job; no code exists yet.
      const jobs = await t.app.ctx.db.kysely.selectFrom('jobs').select(['type']).execute();
      expect(jobs).toEqual([{ type: 'accounts.reset-code' }, { type: 'accounts.reset-code' }]);
      expect(await t.app.ctx.db.kysely.selectFrom('codes').selectAll().execute()).toEqual([]);

      // After the answer: the worker finds the account, stores a code and queues the mail.
      mailer.open();
      await t.app.ctx.jobs.runDue();
      expect(mailer.sent.map((m) => m.to)).toEqual([s.email]);
    } finally {
      await t.close();
    }
  });

  it('counts per-address limits the same for unknown and known addresses (status, body, Retry-After)', async () => {
    const t = await createTestApp({
      dialect,
      rateLimits: { 'forgot:account': { points: 2, durationSeconds: 60 } },
    });
    try {
      const s = await signUpStudent(t);
      const run = async (email: string) => {
        const out = [];
        for (let i = 0; i < 3; i += 1) {
          const r = await post(t, '/public/password/forgot', { email });
          out.push({ status: r.statusCode, body: r.body, retry: r.headers['retry-after'] !== undefined });
        }
        return out;
      };
      const known = await run(s.email);
      const unknown = await run(freshEmail());
      expect(known.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(unknown).toEqual(known);
    } finally {
      await t.close();
    }
  });
});

function post(t: TestApp, url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, payload: payload as object });
}
