/**
 * At the protocol layer: application errors that keep the session, the
 * per-user session cap, the per-IP cap on sockets before CONNECT, the CONNECT deadline, idle
 * clients without heart-beats, and delivery that yields to the event loop. Time is a
 * ManualTimers clock: no sleeping.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import { StompServer, type StompServerOptions } from './server.js';
import {
  StompAppError,
  StompError,
  bearerToken,
  type SessionOptions,
  type StompAppErrorBody,
  type StompHooks,
  type StompSession,
} from './session.js';
import { ManualTimers, collect, connectOrThrow, connectStomp, rawClient, type RawClient } from './testing.js';

interface Harness {
  http: Server;
  stomp: StompServer;
  url: string;
}

const open: Harness[] = [];
const clients: RawClient[] = [];

async function start(
  session: Partial<SessionOptions> = {},
  server: Partial<StompServerOptions> = {},
  onSend: StompHooks['onSend'] = async () => {},
): Promise<Harness> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const hooks: StompHooks = {
    authenticate: async (headers) => {
      const m = /^user-(\d+)$/.exec(bearerToken(headers) ?? '');
      if (!m) throw new StompError('Invalid token');
      return { userId: Number(m[1]), tokenVersion: 0, campusId: 1 };
    },
    authorizeSubscribe: () => {},
    onSend,
  };
  const stomp = new StompServer({ hooks, allowedOrigins: [], session, ...server });
  stomp.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const h = { http, stomp, url: `ws://127.0.0.1:${port}/ws` };
  open.push(h);
  return h;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const h of open.splice(0)) {
    await h.stomp.close(100);
    await new Promise<void>((resolve) => h.http.close(() => resolve()));
  }
});

function raw(url: string): RawClient {
  const c = rawClient(url);
  clients.push(c);
  return c;
}

async function connected(url: string, user = 1, heartBeat = '0,0'): Promise<RawClient> {
  const c = raw(url);
  await c.opened;
  c.sendFrame('CONNECT', {
    'accept-version': '1.2',
    Authorization: `Bearer user-${user}`,
    'heart-beat': heartBeat,
  });
  const f = await c.nextFrame();
  if (f.command !== 'CONNECTED') throw new Error(`expected CONNECTED, got ${f.command}`);
  return c;
}

describe('application errors of a SEND', () => {
  it('answer a MESSAGE on /user/queue/errors with {message, code, receiptId}, no RECEIPT, and keep the session', async () => {
    let refuse = true;
    const h = await start({}, {}, async () => {
      if (refuse) throw new StompAppError('Type a message or attach a photo', 'VALIDATION');
    });
    // The stock client, as the web app uses it.
    const client = await connectOrThrow(h.url, { Authorization: 'Bearer user-1' });
    const errors = collect(client, '/user/queue/errors');
    const receipts: string[] = [];
    client.onUnhandledReceipt = (f) => receipts.push(f.headers['receipt-id'] ?? '');
    let closed = false;
    client.onWebSocketClose = () => (closed = true);

    client.publish({ destination: '/app/x', body: '{}', headers: { receipt: 'send-1' } });
    const body = JSON.parse((await errors.next()).body) as StompAppErrorBody;
    expect(body).toEqual({
      message: 'Type a message or attach a photo',
      code: 'VALIDATION',
      receiptId: 'send-1',
    });

    // Without a receipt header: receiptId null. Then a good SEND on the same connection works.
    client.publish({ destination: '/app/x', body: '{}' });
    expect((JSON.parse((await errors.next()).body) as StompAppErrorBody).receiptId).toBeNull();
    refuse = false;
    client.publish({ destination: '/app/x', body: '{}', headers: { receipt: 'send-2' } });
    await new Promise<void>((resolve) => client.watchForReceipt('send-2', () => resolve()));
    expect(receipts).toEqual([]);
    expect(closed).toBe(false);
    expect(client.connected).toBe(true);
    await client.deactivate();
  });

  it('still answer ERROR and close for protocol errors', async () => {
    const h = await start();
    const c = await connected(h.url);
    c.sendFrame('SEND', { receipt: 'r1' }, '{}'); // no destination
    const f = await c.nextFrame();
    expect(f.command).toBe('ERROR');
    expect(header(f, 'message')).toBe('Missing header: destination');
    expect((await c.closed).code).toBe(1002);
  });
});

describe('STOMP limits', () => {
  it('refuses the 21st session of one student with ERROR, and accepts another student', async () => {
    const h = await start({}, { maxSessionsPerUser: 20, maxPendingPerIp: 100 });
    for (let i = 0; i < 20; i++) await connected(h.url, 7);
    const extra = await connectStomp(h.url, { Authorization: 'Bearer user-7' });
    expect(extra.ok).toBe(false);
    if (!extra.ok)
      expect(extra.error?.headers['message']).toBe('Too many open sessions. Close a tab and try again.');
    expect(h.stomp.sessionsOf(7)).toHaveLength(20);
    await connected(h.url, 8);
    // Closing one frees a place.
    clients[0]!.ws.close();
    await clients[0]!.closed;
    await connected(h.url, 7);
  });

  it('caps sockets per IP that have not sent CONNECT yet (429 at the upgrade)', async () => {
    const h = await start({}, { maxPendingPerIp: 3 });
    const pending = [raw(h.url), raw(h.url), raw(h.url)];
    await Promise.all(pending.map((c) => c.opened));
    const refused = raw(h.url);
    await expect(refused.opened).rejects.toThrow(/429/);
    // Once one of them has connected, its place is free again.
    pending[0]!.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
    expect((await pending[0]!.nextFrame()).command).toBe('CONNECTED');
    await raw(h.url).opened;
  });

  it('closes a socket that has not sent CONNECT 10 s after the upgrade', async () => {
    const timers = new ManualTimers();
    const h = await start({ timers, connectTimeoutMs: 10_000 });
    const c = raw(h.url);
    await c.opened;
    await waitFor(() => h.stomp.size === 1);
    timers.advance(9_999);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    timers.advance(1);
    const f = await c.nextFrame();
    expect(f.command).toBe('ERROR');
    expect(header(f, 'message')).toBe('CONNECT expected');
    await c.closed;
  });

  it('closes a client that negotiated heart-beat 0,0 after 5 minutes without a frame', async () => {
    const timers = new ManualTimers();
    const h = await start({
      timers,
      idleTimeoutMs: 5 * 60_000,
      idleMessage: 'Closed after 5 minutes without activity',
    });
    const c = await connected(h.url, 1, '0,0');
    timers.advance(4 * 60_000);
    // Activity resets the clock.
    c.sendFrame('SUBSCRIBE', { id: 's', destination: '/q', receipt: 'r' });
    expect(header(await c.nextFrame(), 'receipt-id')).toBe('r');
    timers.advance(4 * 60_000);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    timers.advance(60_000);
    const f = await c.nextFrame();
    expect(f.command).toBe('ERROR');
    expect(header(f, 'message')).toBe('Closed after 5 minutes without activity');
    await c.closed;
  });

  it('delivers to many sessions of one student in slices, in order, without blocking the event loop', async () => {
    const h = await start({}, { maxSessionsPerUser: 200, maxPendingPerIp: 200, deliverySliceMs: 0 });
    const n = 100;
    const cs = await Promise.all(Array.from({ length: n }, () => connected(h.url, 3)));
    for (const c of cs) c.sendFrame('SUBSCRIBE', { id: 's', destination: '/q', receipt: 'sub' });
    for (const c of cs) await c.nextFrame();
    let delivered = 0;
    for (const s of h.stomp.sessionsOf(3)) {
      const original = s.deliver.bind(s);
      (s as { deliver: StompSession['deliver'] }).deliver = (...args) => {
        delivered++;
        return original(...args);
      };
    }
    h.stomp.deliverToUser(3, '/q', 'first', '1');
    h.stomp.deliverToUser(3, '/q', 'second', '2');
    // Queued, not done inline; then one slice per turn of the event loop.
    expect(delivered).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBeLessThan(2 * n);
    await waitFor(() => delivered === 2 * n);
    for (const c of cs) {
      expect((await c.nextFrame()).body.toString()).toBe('first');
      expect((await c.nextFrame()).body.toString()).toBe('second');
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
