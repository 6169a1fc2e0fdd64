import { NOTIFY_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from '../listings/testing.js';
import { browserKeys, campusMorning, startPushService } from './testing.js';

/** Hosts that are, or resolve to, loopback, private, link-local, metadata and other internal addresses. */
const INTERNAL_ENDPOINTS = [
  'https://127.0.0.1:8443/push/x',
  'https://127.1.2.3/push/x',
  'https://[::1]/push/x',
  'https://2130706433/push/x', // 127.0.0.1 as one number
  'https://0x7f.1/push/x',
  'https://169.254.169.254/latest/meta-data/',
  'https://10.0.0.1/',
  'https://172.16.5.4/',
  'https://192.168.1.1/',
  'https://100.64.0.1/', // carrier-grade NAT
  'https://0.0.0.0/',
  'https://[::]/',
  'https://224.0.0.1/',
  'https://[ff02::1]/',
  'https://[fe80::1]/',
  'https://[fd12:3456::1]/', // unique-local
  'https://[::ffff:127.0.0.1]/', // IPv4-mapped
  'https://[::ffff:a9fe:a9fe]/', // 169.254.169.254, mapped
  'https://localhost/push/x',
  'https://localhost./push/x',
  'https://push.localhost/x',
];

describe.each(dialects)('push endpoints must be public (%s)', (dialect) => {
  let strict: TestApp;
  let local: TestApp;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let port: string;

  beforeAll(async () => {
    strict = await createTestApp({ dialect, jobWorker: false });
    local = await createTestApp({ dialect, jobWorker: false, env: { PUSH_ALLOW_HTTP_ENDPOINTS: 'true' } });
    for (const t of [strict, local]) t.clock.nowMs = campusMorning(Date.now());
    pushService = await startPushService();
    port = new URL(pushService.url).port;
  });
  afterAll(async () => {
    await pushService.close();
    await strict.close();
    await local.close();
  });

  const keys = browserKeys();
  const subscribe = (t: TestApp, s: Student, endpoint: string) =>
    asStudent(t, s, {
      method: 'POST',
      url: '/push/subscriptions',
      payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    });
  const stored = async (t: TestApp, s: Student) =>
    (
      await t.app.ctx.db.kysely
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('user_id', '=', s.id)
        .execute()
    ).map((r) => r.endpoint);

  it('refuses loopback, private, link-local, metadata, multicast and mapped hosts at subscribe', async () => {
    const s = await createStudent(strict);
    for (const endpoint of INTERNAL_ENDPOINTS) {
      const res = await subscribe(strict, s, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json(), endpoint).toEqual({
        message: NOTIFY_MESSAGES.endpointInternal,
        code: 'VALIDATION',
      });
    }
    const unknown = await subscribe(strict, s, 'https://push.invalid/x');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: NOTIFY_MESSAGES.endpointUnresolvable });
    expect(await stored(strict, s)).toEqual([]);
    // A public address is fine (a documentation range stands in for a push service: nothing is sent).
    expect((await subscribe(strict, s, 'https://203.0.113.10/push/x')).statusCode).toBe(201);
    expect((await subscribe(strict, s, 'https://[2606:4700:4700::1111]/push/y')).statusCode).toBe(201);
    expect((await stored(strict, s)).sort()).toEqual([
      'https://203.0.113.10/push/x',
      'https://[2606:4700:4700::1111]/push/y',
    ]);
  });

  it('PUSH_ALLOW_HTTP_ENDPOINTS lets loopback through for local testing, nothing else internal', async () => {
    const s = await createStudent(local);
    expect((await subscribe(local, s, `${pushService.url}/push/a`)).statusCode).toBe(201);
    expect((await subscribe(local, s, `http://localhost:${port}/push/b`)).statusCode).toBe(201);
    for (const endpoint of [
      'http://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/',
      'http://[fd00::1]/',
      'https://192.168.0.10/',
    ]) {
      const res = await subscribe(local, s, endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json(), endpoint).toMatchObject({ message: NOTIFY_MESSAGES.endpointInternal });
    }
  });

  /** A notification for `s` while no session of theirs is open: it is pushed when jobs run. */
  async function notifyOffline(t: TestApp, s: Student, seller: Student, word: string): Promise<void> {
    await asStudent(t, s, { method: 'POST', url: '/searches', payload: { query: word } });
    await postListing(t, seller, validFields({ name: `Vintage ${word}`, category: 'OTHER', price: '30' }));
    await t.app.ctx.jobs.runDue();
  }

  it('checks again when sending: an endpoint that points inside now is not contacted, and is deleted', async () => {
    // As if stored before this check existed, or its name re-pointed at 127.0.0.1 since (rebinding):
    // the push service on 127.0.0.1 is listening, so only the send-time check keeps it from a POST.
    const s = await createStudent(strict);
    const seller = await createStudent(strict);
    for (const endpoint of [`http://localhost:${port}/push/c`, `http://127.0.0.1:${port}/push/d`]) {
      await strict.app.ctx.db.kysely
        .insertInto('push_subscriptions')
        .values({
          campus_id: s.campusId,
          user_id: s.id,
          endpoint,
          p256dh: keys.p256dh,
          auth: keys.auth,
          created_at: Date.now(),
        })
        .execute();
    }
    const before = pushService.received.length;
    await notifyOffline(strict, s, seller, 'typewriter');
    expect(pushService.received).toHaveLength(before);
    expect(await stored(strict, s)).toEqual([]);
  });

  it('sends through the checked lookup where loopback is allowed (a host name reaches 127.0.0.1)', async () => {
    const s = await createStudent(local);
    const seller = await createStudent(local);
    expect((await subscribe(local, s, `http://localhost:${port}/push/e`)).statusCode).toBe(201);
    const before = pushService.received.length;
    await notifyOffline(local, s, seller, 'gramophone');
    expect(pushService.received).toHaveLength(before + 1);
    expect(pushService.received[before]!.headers.host).toBe(`localhost:${port}`);
  });
});
