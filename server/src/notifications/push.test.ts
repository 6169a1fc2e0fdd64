import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NOTIFY_MESSAGES, type PushPayload } from '@campus/contract';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, type Student, type TestApp } from '../../test/helper.js';
import { connectOrThrow } from '../chat/stomp/testing.js';
import { listen } from '../chat/testing.js';
import { postListing, validFields } from '../listings/testing.js';
import { browserKeys, campusMorning, decryptPush, startPushService } from './testing.js';

describe('web push', () => {
  let t: TestApp;
  let buyer: Student;
  let seller: Student;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let status = 201;

  beforeAll(async () => {
    t = await createTestApp({ jobWorker: false, env: { PUSH_ALLOW_HTTP_ENDPOINTS: 'true' } });
    t.clock.nowMs = campusMorning(Date.now());
    buyer = await createStudent(t);
    seller = await createStudent(t);
    pushService = await startPushService(() => status);
  });
  afterAll(async () => {
    await pushService.close();
    await t.close();
  });

  it('generates VAPID keys into DATA_DIR once and publishes the public key', async () => {
    const file = path.join(t.dataDir, 'vapid.json');
    expect(existsSync(file)).toBe(true);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string };
    const res = await t.app.inject({ method: 'GET', url: '/public/push-key' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publicKey: stored.publicKey });
    expect(Buffer.from(stored.publicKey, 'base64url')).toHaveLength(65);
  });

  it('refuses endpoints that are not https (http only when allowed), bad keys and anonymous callers', async () => {
    const keys = browserKeys();
    const sub = (endpoint: string) => ({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
    const strict = await createTestApp({ jobWorker: false });
    try {
      const s = await createStudent(strict);
      const http = await asStudent(strict, s, {
        method: 'POST',
        url: '/push/subscriptions',
        payload: sub('http://push.example/x'),
      });
      expect(http.statusCode).toBe(400);
      expect(http.json()).toMatchObject({ message: NOTIFY_MESSAGES.endpointInvalid });
      for (const endpoint of ['ftp://push.example/x', 'javascript:alert(1)', 'not a url']) {
        const res = await asStudent(strict, s, {
          method: 'POST',
          url: '/push/subscriptions',
          payload: sub(endpoint),
        });
        expect(res.statusCode).toBe(400);
      }
      const ok = await asStudent(strict, s, {
        method: 'POST',
        url: '/push/subscriptions',
        // A public address (nothing is sent to it here); host names are resolved and checked.
        payload: sub('https://203.0.113.20/x'),
      });
      expect(ok.statusCode).toBe(201);
      const badKeys = await asStudent(strict, s, {
        method: 'POST',
        url: '/push/subscriptions',
        payload: { endpoint: 'https://push.example/y', keys: { p256dh: 'short', auth: keys.auth } },
      });
      expect(badKeys.statusCode).toBe(400);
      expect(
        (
          await strict.app.inject({
            method: 'POST',
            url: '/push/subscriptions',
            payload: sub('https://push.example/z'),
          })
        ).statusCode,
      ).toBe(401);
    } finally {
      await strict.close();
    }
  });

  it('sends an RFC 8291 aes128gcm payload signed with VAPID only while no session is open; 410 deletes', async () => {
    const keys = browserKeys();
    const endpoint = `${pushService.url}/push/abc`;
    const res = await asStudent(t, buyer, {
      method: 'POST',
      url: '/push/subscriptions',
      payload: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    });
    expect(res.statusCode).toBe(201);
    await asStudent(t, buyer, { method: 'POST', url: '/searches', payload: { query: 'guitar' } });

    // An open session: the bell gets it live, no push.
    const url = await listen(t.app);
    const client = await connectOrThrow(url, { Authorization: `Bearer ${buyer.token}` });
    await postListing(t, seller, validFields({ name: 'Acoustic guitar', category: 'OTHER', price: '80' }));
    await t.app.ctx.jobs.runDue();
    expect(pushService.received).toHaveLength(0);
    await client.deactivate();
    await expect.poll(() => t.app.chat.stomp.sessionsOf(buyer.id).length).toBe(0);

    // No session: pushed, encrypted for this browser only.
    await postListing(t, seller, validFields({ name: 'Electric guitar', category: 'OTHER', price: '120' }));
    await t.app.ctx.jobs.runDue();
    expect(pushService.received).toHaveLength(1);
    const push = pushService.received[0]!;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(decryptPush(push.body, keys)) as PushPayload;
    expect(payload).toMatchObject({ title: 'New listing for “guitar”', body: 'Electric guitar — $120' });
    expect(payload.link).toMatch(/^\/single_listing\/\d+$/);

    // VAPID (RFC 8292): a JWT for the push service's origin, signed by the published key.
    const auth = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization));
    expect(auth).not.toBeNull();
    const publicKey = Buffer.from(auth![2]!, 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33, 65).toString('base64url'),
    };
    const { payload: claims } = await jwtVerify(auth![1]!, await importJWK(jwk, 'ES256'));
    expect(claims.aud).toBe(pushService.url);
    expect(auth![2]).toBe(
      (await t.app.inject({ method: 'GET', url: '/public/push-key' })).json<{ publicKey: string }>()
        .publicKey,
    );

    // The push service says the subscription is gone: it is deleted, and not tried again.
    status = 410;
    await postListing(t, seller, validFields({ name: 'Bass guitar', category: 'OTHER', price: '150' }));
    await t.app.ctx.jobs.runDue();
    expect(pushService.received).toHaveLength(2);
    const left = await t.app.ctx.db.kysely
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', '=', buyer.id)
      .execute();
    expect(left).toHaveLength(0);
    status = 201;
    await postListing(t, seller, validFields({ name: 'Guitar stand', category: 'OTHER', price: '15' }));
    await t.app.ctx.jobs.runDue();
    expect(pushService.received).toHaveLength(2);
  });

  it('DELETE /push/subscriptions stops pushes to that endpoint', async () => {
    const keys = browserKeys();
    const endpoint = `${pushService.url}/push/def`;
    await asStudent(t, buyer, {
      method: 'POST',
      url: '/push/subscriptions',
      payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    });
    const del = await asStudent(t, buyer, {
      method: 'DELETE',
      url: '/push/subscriptions',
      payload: { endpoint },
    });
    expect(del.statusCode).toBe(204);
    const before = pushService.received.length;
    await postListing(t, seller, validFields({ name: 'Guitar strings', category: 'OTHER', price: '9' }));
    await t.app.ctx.jobs.runDue();
    expect(pushService.received).toHaveLength(before);
  });
});
