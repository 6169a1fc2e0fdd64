/**
 * The STOMP server on its own (stomp/testing.ts's echo server). Frames of a connected session:
 * delivery, receipts, the principal's scope, refusals, escaping and framing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import { StompError } from './session.js';
import {
  collect,
  connectOrThrow,
  connectStomp,
  rawClient,
  receiptFor,
  startEchoServer,
  stopEchoServer,
  watchEnding,
  type EchoServer,
} from './testing.js';

describe('STOMP server: subscribe, send, receipts', () => {
  let h: EchoServer;
  beforeEach(async () => void (h = await startEchoServer()));
  afterEach(() => stopEchoServer(h));

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
    h.sendDelayMs = 150;
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
    const { errors, closed } = watchEnding(outcome.client);
    outcome.client.subscribe('/private/2', () => {});
    expect(await closed).toBe(1008);
    expect(errors).toEqual(['Forbidden destination']);
    await outcome.client.deactivate();
  });

  it('turns an application error in onSend into ERROR (with receipt-id) and close', async () => {
    h.sendFailure = new StompError('Listing not found', 'listing 9 does not exist');
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
    h.sendFailure = new Error('database password is hunter2');
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
