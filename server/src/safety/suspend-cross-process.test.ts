import { STOMP_PATHS } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, redisUrl, type Student, type TestApp } from '../../test/helper.js';
import { connectOrThrow } from '../chat/stomp/testing.js';
import { listen, pairedApps } from '../chat/testing.js';
import { MOD_EMAIL, bearer } from './testing.js';

const enabled = process.env.TEST_DATABASE_URL !== undefined && redisUrl !== undefined;

describe.skipIf(!enabled)('suspension across two processes sharing PostgreSQL and Redis', () => {
  let pair: Awaited<ReturnType<typeof pairedApps>>;
  let a: TestApp;
  let b: TestApp;
  let mod: Student;
  let victim: Student;
  const open: Client[] = [];

  beforeAll(async () => {
    pair = await pairedApps(redisUrl!, { MODERATOR_EMAILS: MOD_EMAIL });
    [a, b] = pair.apps;
    mod = await createStudent(a, { email: MOD_EMAIL });
    victim = await createStudent(b);
  });
  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await pair?.close();
  });

  it('a suspension on process A closes the STOMP sessions and HTTP tokens on process B at once', async () => {
    const urlB = await listen(b.app);
    const sessions = [await connectOrThrow(urlB, bearer(victim)), await connectOrThrow(urlB, bearer(victim))];
    open.push(...sessions);
    const closed = sessions.map(
      (c) =>
        new Promise<string>((resolve) => {
          c.onStompError = (f) => resolve(f.headers['message'] ?? '');
        }),
    );
    // Warm B's token cache, so B must drop it on A's word.
    expect((await asStudent(b, victim, { method: 'GET', url: '/listings' })).statusCode).toBe(200);
    sessions[0]?.subscribe(STOMP_PATHS.inbox, () => {});

    const res = await asStudent(a, mod, {
      method: 'POST',
      url: `/mod/users/${victim.id}/suspend`,
      payload: { reason: 'Selling fake tickets', days: 30 },
    });
    expect(res.statusCode).toBe(200);
    const messages = await Promise.all(closed);
    expect(messages.every((m) => m.length > 0)).toBe(true);
    await expect.poll(() => sessions.every((c) => !c.connected)).toBe(true);
    await expect
      .poll(async () => (await asStudent(b, victim, { method: 'GET', url: '/listings' })).statusCode)
      .toBe(401);
    const login = await b.app.inject({
      method: 'POST',
      url: '/public/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toContain('Reason: Selling fake tickets');
  });
});
