import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import { StompServer } from './server.js';
import {
  StompError,
  bearerToken,
  negotiateHeartBeat,
  type StompHooks,
  type StompPrincipal,
} from './session.js';
import { collect, connectOrThrow, connectStomp, rawClient, receiptFor } from './testing.js';

const ORIGIN = 'http://campus.test:8080';

/** Tokens are "user-<id>"; "user-<id>-v<n>" carries a token version. */
function principalFor(token: string | null): StompPrincipal {
  const m = token ? /^user-(\d+)(?:-v(\d+))?(?:-ttl(\d+))?$/.exec(token) : null;
  if (!m) throw new StompError(token ? 'Invalid token' : 'Missing Authorization header');
  return {
    userId: Number(m[1]),
    tokenVersion: Number(m[2] ?? 0),
    // Two "campuses" for the scope hook: odd and even user ids.
    campusId: Number(m[1]) % 2,
    ...(m[3] ? { expiresAt: Date.now() + Number(m[3]) } : {}),
  };
}

interface Harness {
  http: Server;
  stomp: StompServer;
  url: string;
  sends: Array<{ userId: number; destination: string; body: string; headers: Record<string, string> }>;
  /** What each hook saw as its scope (StompHooks.scope), in the order they ran. */
  scopes: string[];
}

/** The scope StompHooks.scope gives the work of a frame (the app's is the campus of db/campus-scope.ts). */
const frameScope = new AsyncLocalStorage<string>();

let h: Harness;
let sendDelayMs = 0;
let sendFailure: Error | null = null;

async function start(
  session: ConstructorParameters<typeof StompServer>[0]['session'] = {},
): Promise<Harness> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const sends: Harness['sends'] = [];
  const scopes: string[] = [];
  const hooks: StompHooks = {
    authenticate: async (headers) => {
      scopes.push(`authenticate:${frameScope.getStore() ?? 'none'}`);
      return principalFor(bearerToken(headers));
    },
    scope: (principal, work) => frameScope.run(`campus-${principal.campusId}`, work),
    revalidate: async () => {
      scopes.push(`revalidate:${frameScope.getStore() ?? 'none'}`);
    },
    authorizeSubscribe: (principal, destination) => {
      scopes.push(`subscribe:${frameScope.getStore() ?? 'none'}`);
      if (destination.startsWith('/private/') && !destination.endsWith(`/${principal.userId}`)) {
        throw new StompError('Forbidden destination');
      }
    },
    onSend: async (s, destination, body, headers) => {
      scopes.push(`send:${frameScope.getStore() ?? 'none'}`);
      if (sendDelayMs) await new Promise((r) => setTimeout(r, sendDelayMs));
      if (sendFailure) throw sendFailure;
      sends.push({ userId: s.principal!.userId, destination, body, headers });
      // Echo service: deliver to the destination's subscribers among the sender's sessions.
      stomp.deliverToUser(s.principal!.userId, destination, body, String(sends.length));
    },
  };
  const stomp = new StompServer({ hooks, allowedOrigins: [ORIGIN], session });
  stomp.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { http, stomp, url: `ws://127.0.0.1:${port}/ws`, sends, scopes };
}

beforeEach(async () => {
  sendDelayMs = 0;
  sendFailure = null;
  h = await start();
});

afterEach(async () => {
  await h.stomp.close(200);
  await new Promise<void>((resolve) => h.http.close(() => resolve()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('STOMP server: connect', () => {
  it('accepts a good bearer token and answers CONNECTED with version, heart-beat and server', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer user-1' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.frame.headers['version']).toBe('1.2');
    expect(outcome.frame.headers['heart-beat']).toBe('10000,10000');
    expect(outcome.frame.headers['server']).toMatch(/^campus-market\//);
    expect(h.stomp.sessionsOf(1)).toHaveLength(1);
    await outcome.client.deactivate();
    await sleep(50);
    expect(h.stomp.sessionsOf(1)).toHaveLength(0);
  });

  it('accepts a lower-case authorization header', async () => {
    const client = await connectOrThrow(h.url, { authorization: 'Bearer user-2' });
    expect(h.stomp.sessionsOf(2)).toHaveLength(1);
    await client.deactivate();
  });

  it('answers ERROR and closes for a bad token', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer forged' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error?.headers['message']).toBe('Invalid token');
    expect(outcome.closeCode).toBe(1008);
    expect(h.stomp.size).toBe(0);
  });

  it('answers ERROR and closes without a token', async () => {
    const outcome = await connectStomp(h.url, {});
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error?.headers['message']).toBe('Missing Authorization header');
  });

  it('negotiates the WebSocket sub-protocol and caps the STOMP version by it', async () => {
    const raw = rawClient(h.url, ['v10.stomp', 'v11.stomp']);
    await raw.opened;
    expect(raw.ws.protocol).toBe('v11.stomp');
    raw.sendFrame('CONNECT', { 'accept-version': '1.0,1.1,1.2', Authorization: 'Bearer user-1' });
    const connected = await raw.nextFrame();
    expect(connected.command).toBe('CONNECTED');
    expect(header(connected, 'version')).toBe('1.1');
    raw.ws.close();
  });

  it('speaks 1.0 to a client without accept-version, and refuses unsupported versions', async () => {
    const old = rawClient(h.url, []);
    await old.opened;
    expect(old.ws.protocol).toBe('');
    old.sendFrame('STOMP', { Authorization: 'Bearer user-1' });
    expect(header(await old.nextFrame(), 'version')).toBe('1.0');
    old.ws.close();

    const future = rawClient(h.url);
    await future.opened;
    future.sendFrame('CONNECT', { 'accept-version': '2.0', Authorization: 'Bearer user-1' });
    const error = await future.nextFrame();
    expect(error.command).toBe('ERROR');
    expect(header(error, 'version')).toBe('1.2,1.1,1.0');
    await future.closed;
  });

  it('checks the Origin header against the allowed origin; clients without Origin pass', async () => {
    const evil = rawClient(h.url, ['v12.stomp'], 'http://evil.test');
    await expect(evil.opened).rejects.toThrow(/403/);
    const ours = rawClient(h.url, ['v12.stomp'], ORIGIN);
    await ours.opened;
    ours.ws.close();
    // A page served by this very host (under whatever name) is same-origin.
    const sameHost = rawClient(h.url, ['v12.stomp'], new URL(h.url.replace('ws:', 'http:')).origin);
    await sameHost.opened;
    sameHost.ws.close();
    const noOrigin = rawClient(h.url);
    await noOrigin.opened;
    noOrigin.ws.close();
  });

  it('closes sockets that never send CONNECT', async () => {
    await h.stomp.close(100);
    h.http.close();
    h = await start({ connectTimeoutMs: 100 });
    const raw = rawClient(h.url);
    await raw.opened;
    const error = await raw.nextFrame();
    expect(error.command).toBe('ERROR');
    expect(header(error, 'message')).toBe('CONNECT expected');
    await raw.closed;
  });

  it('closes the sessions of a user whose tokens were revoked, with an ERROR frame', async () => {
    const old = await connectStomp(h.url, { Authorization: 'Bearer user-5-v1' });
    const fresh = await connectOrThrow(h.url, { Authorization: 'Bearer user-5-v2' });
    const other = await connectOrThrow(h.url, { Authorization: 'Bearer user-6' });
    expect(old.ok).toBe(true);
    if (!old.ok) return;
    const errors: string[] = [];
    old.client.onStompError = (f) => errors.push(f.headers['message'] ?? '');
    const closed = new Promise<number>(
      (resolve) => (old.client.onWebSocketClose = (e: { code: number }) => resolve(e.code)),
    );
    expect(h.stomp.closeUser(5, 'Your password was changed. Log in again.', (p) => p.tokenVersion < 2)).toBe(
      1,
    );
    expect(await closed).toBe(1008);
    expect(errors).toEqual(['Your password was changed. Log in again.']);
    expect(h.stomp.sessionsOf(5)).toHaveLength(1);
    expect(h.stomp.sessionsOf(6)).toHaveLength(1);
    await old.client.deactivate();
    await fresh.deactivate();
    await other.deactivate();
  });

  it('closes a session when its credentials expire', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer user-8-v0-ttl150' });
    if (!outcome.ok) throw new Error('connect failed');
    const errors: string[] = [];
    outcome.client.onStompError = (f) => errors.push(f.headers['message'] ?? '');
    const closed = new Promise<number>(
      (resolve) => (outcome.client.onWebSocketClose = (e: { code: number }) => resolve(e.code)),
    );
    expect(await closed).toBe(1008);
    expect(errors).toEqual(['Credentials expired']);
    await outcome.client.deactivate();
  });

  it('closes every socket on shutdown', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer user-1' });
    if (!outcome.ok) throw new Error('connect failed');
    const closed = new Promise<number>(
      (resolve) => (outcome.client.onWebSocketClose = (e: { code: number }) => resolve(e.code)),
    );
    await h.stomp.close(500);
    expect(await closed).toBe(1001);
    await outcome.client.deactivate();
  });
});

describe('STOMP server: subscribe, send, receipts', () => {
  it('delivers MESSAGE with subscription, message-id, destination, content-type, content-length', async () => {
    const client = await connectOrThrow(h.url, { Authorization: 'Bearer user-1' });
    const inbox = collect(client, '/user/queue/chat/1:2');
    client.publish({ destination: '/user/queue/chat/1:2', body: '{"content":"hi"}' });
    const m = await inbox.next();
    expect(m.body).toBe('{"content":"hi"}');
    expect(m.headers['destination']).toBe('/user/queue/chat/1:2');
    expect(m.headers['subscription']).toBe(inbox.subscription.id);
    expect(m.headers['message-id']).toBe('1');
    expect(m.headers['content-type']).toBe('application/json');
    expect(m.headers['content-length']).toBe(String(Buffer.byteLength('{"content":"hi"}')));
    await client.deactivate();
  });

  it('sends the SEND receipt only after onSend has resolved', async () => {
    sendDelayMs = 150;
    const client = await connectOrThrow(h.url, { Authorization: 'Bearer user-1' });
    const started = Date.now();
    const receipt = receiptFor(client, 'r-send');
    client.publish({ destination: '/app/x', body: 'stored?', headers: { receipt: 'r-send' } });
    await receipt;
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(h.sends.map((s) => s.body)).toEqual(['stored?']);
    await client.deactivate();
  });

  it('answers RECEIPT for SUBSCRIBE, UNSUBSCRIBE, ACK, BEGIN/COMMIT and DISCONNECT', async () => {
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
    expect((await raw.nextFrame()).command).toBe('CONNECTED');
    const steps: Array<[Parameters<typeof raw.sendFrame>[0], Record<string, string>]> = [
      ['SUBSCRIBE', { id: 's1', destination: '/topic/a', receipt: 'r1' }],
      ['ACK', { id: 'x', receipt: 'r2' }],
      ['BEGIN', { transaction: 't1', receipt: 'r3' }],
      ['SEND', { destination: '/topic/a', transaction: 't1', receipt: 'r4' }],
      ['COMMIT', { transaction: 't1', receipt: 'r5' }],
      ['UNSUBSCRIBE', { id: 's1', receipt: 'r6' }],
      ['DISCONNECT', { receipt: 'r7' }],
    ];
    for (const [command, headers] of steps)
      raw.sendFrame(command, headers, command === 'SEND' ? 'in tx' : '');
    const seen: string[] = [];
    for (let i = 0; i < steps.length + 1; i++) {
      const f = await raw.nextFrame();
      seen.push(
        f.command === 'RECEIPT' ? `R:${header(f, 'receipt-id')}` : `${f.command}:${f.body.toString()}`,
      );
    }
    // The transaction's SEND is only processed (and delivered) on COMMIT.
    expect(seen).toEqual(['R:r1', 'R:r2', 'R:r3', 'R:r4', 'MESSAGE:in tx', 'R:r5', 'R:r6', 'R:r7']);
    expect((await raw.closed).code).toBe(1000);
  });

  it("handles each frame of a session as work of its principal's scope, CONNECT's lookup outside it", async () => {
    const [odd, even] = [
      await connectOrThrow(h.url, { Authorization: 'Bearer user-3' }),
      await connectOrThrow(h.url, { Authorization: 'Bearer user-4' }),
    ];
    for (const [client, who] of [
      [odd, 'odd'],
      [even, 'even'],
    ] as const) {
      client.subscribe('/topic/a', () => {}, { receipt: `sub-${who}` });
      await receiptFor(client, `sub-${who}`);
      const sent = receiptFor(client, `send-${who}`);
      client.publish({ destination: '/app/x', body: who, headers: { receipt: `send-${who}` } });
      await sent;
      // A transaction's SENDs run on COMMIT, in the scope too.
      const tx = client.begin(`tx-${who}`);
      client.publish({ destination: '/app/x', body: `${who} in tx`, headers: { transaction: tx.id } });
      tx.commit();
      // Frames are handled in order: this receipt comes after the COMMIT's SEND has run.
      const after = receiptFor(client, `after-${who}`);
      client.publish({ destination: '/app/x', body: 'after', headers: { receipt: `after-${who}` } });
      await after;
    }
    expect(h.scopes).toEqual([
      'authenticate:none',
      'revalidate:campus-1',
      'authenticate:none',
      'revalidate:campus-0',
      'subscribe:campus-1',
      'send:campus-1',
      'send:campus-1',
      'send:campus-1',
      'subscribe:campus-0',
      'send:campus-0',
      'send:campus-0',
      'send:campus-0',
    ]);
    await odd.deactivate();
    await even.deactivate();
  });

  it('refuses an unauthorized SUBSCRIBE with ERROR and close', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer user-1' });
    if (!outcome.ok) throw new Error('connect failed');
    const errors: string[] = [];
    outcome.client.onStompError = (f) => errors.push(f.headers['message'] ?? '');
    const closed = new Promise<number>(
      (resolve) => (outcome.client.onWebSocketClose = (e: { code: number }) => resolve(e.code)),
    );
    outcome.client.subscribe('/private/2', () => {});
    expect(await closed).toBe(1008);
    expect(errors).toEqual(['Forbidden destination']);
    await outcome.client.deactivate();
  });

  it('turns an application error in onSend into ERROR (with receipt-id) and close', async () => {
    sendFailure = new StompError('Listing not found', 'listing 9 does not exist');
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
    await raw.nextFrame();
    raw.sendFrame('SEND', { destination: '/app/x', receipt: 'r9' }, '{}');
    const error = await raw.nextFrame();
    expect(error.command).toBe('ERROR');
    expect(header(error, 'message')).toBe('Listing not found');
    expect(header(error, 'receipt-id')).toBe('r9');
    expect(error.body.toString()).toBe('listing 9 does not exist');
    await raw.closed;
  });

  it('hides internal errors behind a generic ERROR message', async () => {
    sendFailure = new Error('database password is hunter2');
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
    await raw.nextFrame();
    raw.sendFrame('SEND', { destination: '/app/x' }, '{}');
    const error = await raw.nextFrame();
    expect(header(error, 'message')).toBe('Internal server error');
    expect(error.body.toString()).not.toContain('hunter2');
    expect((await raw.closed).code).toBe(1011);
  });

  it('round-trips escaped header values (":" and newline) in both directions with stompjs', async () => {
    const client = await connectOrThrow(h.url, { Authorization: 'Bearer user-1' });
    const inbox = collect(client, '/user/queue/chat/3:4');
    client.publish({ destination: '/user/queue/chat/3:4', body: 'x', headers: { 'x-note': 'a:b\nc' } });
    const m = await inbox.next();
    expect(h.sends[0]?.headers['x-note']).toBe('a:b\nc');
    expect(h.sends[0]?.destination).toBe('/user/queue/chat/3:4');
    expect(m.headers['destination']).toBe('/user/queue/chat/3:4');
    await client.deactivate();
  });

  it('reads a body containing NUL by content-length, and several frames from one message', async () => {
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
    await raw.nextFrame();
    const { serializeFrame } = await import('./frame.js');
    const batch = Buffer.concat([
      serializeFrame('SEND', { destination: '/app/a' }, Buffer.from('a\0b')),
      Buffer.from('\n'),
      serializeFrame('SEND', { destination: '/app/b', receipt: 'done' }, 'second'),
    ]);
    // Split the two frames across three WebSocket messages at awkward places.
    raw.ws.send(batch.subarray(0, 5));
    raw.ws.send(batch.subarray(5, 30));
    raw.ws.send(batch.subarray(30));
    const receipt = await raw.nextFrame();
    expect(header(receipt, 'receipt-id')).toBe('done');
    expect(h.sends.map((s) => s.body)).toEqual(['a\0b', 'second']);
    raw.ws.close();
  });
});

describe('STOMP server: heart-beats', () => {
  it('negotiates intervals per the spec', () => {
    expect(negotiateHeartBeat([100, 200], { outgoing: 150, incoming: 300 })).toEqual({
      send: 200,
      expect: 300,
    });
    expect(negotiateHeartBeat([0, 200], { outgoing: 150, incoming: 300 })).toEqual({ send: 200, expect: 0 });
    expect(negotiateHeartBeat([100, 0], { outgoing: 150, incoming: 300 })).toEqual({ send: 0, expect: 300 });
    expect(negotiateHeartBeat([100, 100], { outgoing: 0, incoming: 0 })).toEqual({ send: 0, expect: 0 });
  });

  it('keeps an idle stompjs connection alive with heart-beats both ways', async () => {
    await h.stomp.close(100);
    h.http.close();
    h = await start({ heartBeat: { outgoing: 250, incoming: 250 } });
    const outcome = await connectStomp(
      h.url,
      { Authorization: 'Bearer user-1' },
      { heartbeatIncoming: 250, heartbeatOutgoing: 250 },
    );
    if (!outcome.ok) throw new Error('connect failed');
    expect(outcome.frame.headers['heart-beat']).toBe('250,250');
    let closed = false;
    outcome.client.onWebSocketClose = () => (closed = true);
    await sleep(1_500);
    expect(closed).toBe(false);
    expect(outcome.client.connected).toBe(true);
    expect(h.stomp.sessionsOf(1)).toHaveLength(1);
    await outcome.client.deactivate();
  });

  it('sends heart-beat EOLs to a client that asks for them', async () => {
    await h.stomp.close(100);
    h.http.close();
    h = await start({ heartBeat: { outgoing: 50, incoming: 0 } });
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', {
      'accept-version': '1.2',
      'heart-beat': '0,100',
      Authorization: 'Bearer user-1',
    });
    expect(header(await raw.nextFrame(), 'heart-beat')).toBe('50,0');
    await sleep(550);
    // Every max(50, 100) = 100 ms.
    expect(raw.heartbeats).toBeGreaterThanOrEqual(3);
    expect(raw.heartbeats).toBeLessThanOrEqual(8);
    raw.ws.close();
  });

  it('drops a peer that stops sending after about twice the agreed interval', async () => {
    await h.stomp.close(100);
    h.http.close();
    h = await start({ heartBeat: { outgoing: 0, incoming: 200 } });
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', {
      'accept-version': '1.2',
      'heart-beat': '200,0',
      Authorization: 'Bearer user-1',
    });
    await raw.nextFrame();
    const connectedAt = Date.now();
    // Alive while it beats (for longer than the 400 ms it may stay silent)...
    for (let i = 0; i < 8; i++) {
      await sleep(100);
      raw.ws.send('\n');
    }
    expect(h.stomp.sessionsOf(1)).toHaveLength(1);
    // ...dropped once it stops.
    const stoppedAt = Date.now();
    const { code } = await raw.closed;
    const silentFor = Date.now() - stoppedAt;
    expect(code).toBe(1006);
    expect(silentFor).toBeGreaterThanOrEqual(350);
    expect(silentFor).toBeLessThan(1_500);
    expect(Date.now() - connectedAt).toBeGreaterThan(1_100);
    expect(h.stomp.sessionsOf(1)).toHaveLength(0);
  });
});

describe('STOMP server: bad frames get ERROR and close', () => {
  async function expectError(
    send: (raw: ReturnType<typeof rawClient>) => void,
    connect = true,
  ): Promise<string> {
    const raw = rawClient(h.url);
    await raw.opened;
    if (connect) {
      raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
      expect((await raw.nextFrame()).command).toBe('CONNECTED');
    }
    send(raw);
    const error = await raw.nextFrame();
    expect(error.command).toBe('ERROR');
    const { code } = await raw.closed;
    expect(code).toBeGreaterThanOrEqual(1000);
    return header(error, 'message') ?? '';
  }

  it('anything before CONNECT', async () => {
    expect(await expectError((raw) => raw.sendFrame('SEND', { destination: '/a' }, 'x'), false)).toBe(
      'CONNECT expected',
    );
  });

  it('an unknown command', async () => {
    expect(await expectError((raw) => raw.ws.send('HELLO\n\n\0'))).toMatch(/Unknown command/);
  });

  it('a missing required header', async () => {
    expect(await expectError((raw) => raw.sendFrame('SUBSCRIBE', { destination: '/a' }))).toBe(
      'Missing header: id',
    );
    expect(await expectError((raw) => raw.sendFrame('SEND', {}, 'x'))).toBe('Missing header: destination');
  });

  it('an undefined escape sequence', async () => {
    expect(await expectError((raw) => raw.ws.send('SEND\ndestination:/a\\x\n\n\0'))).toMatch(/escape/);
  });

  it('a frame over the size limit', async () => {
    const big = 'x'.repeat(70 * 1024);
    expect(await expectError((raw) => raw.sendFrame('SEND', { destination: '/a' }, big))).toMatch(
      /larger than 65536/,
    );
  });

  it('too many headers', async () => {
    const headers: Record<string, string> = { destination: '/a' };
    for (let i = 0; i < 40; i++) headers[`h${i}`] = 'v';
    expect(await expectError((raw) => raw.sendFrame('SEND', headers, 'x'))).toMatch(/More than 32 headers/);
  });

  it('a body on a frame that must not have one, and a second CONNECT', async () => {
    expect(
      await expectError((raw) => raw.sendFrame('SUBSCRIBE', { id: '1', destination: '/a' }, 'body')),
    ).toMatch(/must not have a body/);
    expect(await expectError((raw) => raw.sendFrame('CONNECT', { 'accept-version': '1.2' }))).toBe(
      'Already connected',
    );
  });

  it('a WebSocket message beyond maxPayload is refused by the socket layer', async () => {
    const raw = rawClient(h.url);
    await raw.opened;
    raw.ws.send(Buffer.alloc(200 * 1024, 0x41));
    expect((await raw.closed).code).toBe(1009);
  });
});
