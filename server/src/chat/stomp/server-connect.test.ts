/**
 * The STOMP server on its own (stomp/testing.ts's echo server). CONNECT: tokens, versions and
 * sub-protocols, Origin, the CONNECT deadline, revoked and expired credentials, shutdown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import {
  connectOrThrow,
  connectStomp,
  ECHO_ORIGIN,
  rawClient,
  startEchoServer,
  stopEchoServer,
  watchEnding,
  type EchoServer,
} from './testing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('STOMP server: connect', () => {
  let h: EchoServer;
  beforeEach(async () => void (h = await startEchoServer()));
  afterEach(() => stopEchoServer(h));

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
    const ours = rawClient(h.url, ['v12.stomp'], ECHO_ORIGIN);
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
    await stopEchoServer(h, 100);
    h = await startEchoServer({ connectTimeoutMs: 100 });
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
    const { errors, closed } = watchEnding(old.client);
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
    const { errors, closed } = watchEnding(outcome.client);
    expect(await closed).toBe(1008);
    expect(errors).toEqual(['Credentials expired']);
    await outcome.client.deactivate();
  });

  it('closes every socket on shutdown', async () => {
    const outcome = await connectStomp(h.url, { Authorization: 'Bearer user-1' });
    if (!outcome.ok) throw new Error('connect failed');
    const { closed } = watchEnding(outcome.client);
    await h.stomp.close(500);
    expect(await closed).toBe(1001);
    await outcome.client.deactivate();
  });
});
