import { MESSAGES } from '@campus/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, redisUrl, type TestApp } from '../../test/helper.js';
import { TcpProxy } from '../../test/tcp-proxy.js';

/** A hang shows as ≥ 30 s; a fallback answers in well under a second. */
async function answered<T>(request: Promise<T>, seconds = 5): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([request, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(redisUrl).each(dialects)('login and sign-up without a working Redis (%s)', (dialect) => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await t?.close();
    await proxy?.close();
    t = undefined;
    proxy = undefined;
  });

  const open = async () => {
    proxy = await TcpProxy.forUrl(redisUrl!).start();
    t = await createTestApp({
      dialect,
      redis: true,
      env: { REDIS_URL: proxy.urlFor(redisUrl!) },
      rateLimits: { 'login:account-ip': { points: 3, durationSeconds: 900 } },
    });
    return { t, proxy };
  };
  const login = (app: TestApp, ip: string, email: string, password: string) =>
    answered(
      app.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email, password },
        remoteAddress: ip,
      }),
    );

  it('Redis hung: logins and sign-ups answer promptly, and a guesser is still refused', async () => {
    const { t, proxy } = await open();
    const s = await createStudent(t);
    proxy.freeze();

    for (let i = 0; i < 3; i += 1) {
      expect((await login(t, '198.51.100.7', s.email, `wrong-guess-${i}`)).statusCode).toBe(401);
    }
    const refused = await login(t, '198.51.100.7', s.email, s.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(MESSAGES.rateLimited);
    expect((await login(t, '203.0.113.20', s.email, s.password)).statusCode).toBe(200);

    const signUp = await answered(
      t.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        payload: {
          firstName: 'Hung',
          lastName: 'Redis',
          email: 'hung-redis@msu.edu',
          password: 'green-and-white-42',
        },
      }),
    );
    expect(signUp.statusCode).toBe(201);
  }, 20_000);

  it('Redis gone: 31 logins answer 200, 401 or 429, never 500', async () => {
    const { t, proxy } = await open();
    const s = await createStudent(t);
    await proxy.close();

    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const right = i % 3 === 0;
      const ip = right ? '203.0.113.30' : '198.51.100.8';
      const res = await login(t, ip, s.email, right ? s.password : `wrong-guess-${i}`);
      statuses.push(res.statusCode);
      if (res.statusCode >= 500) throw new Error(`login answered ${res.statusCode}: ${res.body}`);
    }
    // The owner's network always gets in; the guesser's address is refused after 3 failures.
    expect(statuses.filter((_, i) => i % 3 === 0).every((code) => code === 200)).toBe(true);
    expect(statuses.filter((_, i) => i % 3 !== 0).slice(0, 3)).toEqual([401, 401, 401]);
    expect(
      statuses
        .filter((_, i) => i % 3 !== 0)
        .slice(3)
        .every((code) => code === 429),
    ).toBe(true);
  }, 20_000);
});
