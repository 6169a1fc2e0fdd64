/**
 * The STOMP server on its own (stomp/testing.ts's echo server). Heart-beats: the negotiated
 * intervals, kept alive both ways, a silent peer dropped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import { negotiateHeartBeat } from './session.js';
import { connectStomp, rawClient, startEchoServer, stopEchoServer, type EchoServer } from './testing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('STOMP server: heart-beats', () => {
  let h: EchoServer;
  beforeEach(async () => void (h = await startEchoServer()));
  afterEach(() => stopEchoServer(h));

  /** The server again, with these heart-beats. */
  async function restartWith(heartBeat: { outgoing: number; incoming: number }): Promise<void> {
    await stopEchoServer(h, 100);
    h = await startEchoServer({ heartBeat });
  }

  /** A raw client CONNECTed asking for `heartBeat` ("cx,cy"), and the server's answer. */
  async function connectRaw(heartBeat: string) {
    const raw = rawClient(h.url);
    await raw.opened;
    raw.sendFrame('CONNECT', {
      'accept-version': '1.2',
      'heart-beat': heartBeat,
      Authorization: 'Bearer user-1',
    });
    return { raw, connected: await raw.nextFrame() };
  }

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
    await restartWith({ outgoing: 250, incoming: 250 });
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
    await restartWith({ outgoing: 50, incoming: 0 });
    const { raw, connected } = await connectRaw('0,100');
    expect(header(connected, 'heart-beat')).toBe('50,0');
    await sleep(550);
    // Every max(50, 100) = 100 ms.
    expect(raw.heartbeats).toBeGreaterThanOrEqual(3);
    expect(raw.heartbeats).toBeLessThanOrEqual(8);
    raw.ws.close();
  });

  it('drops a peer that stops sending after about twice the agreed interval', async () => {
    await restartWith({ outgoing: 0, incoming: 200 });
    const { raw } = await connectRaw('200,0');
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
