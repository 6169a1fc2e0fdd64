/**
 * What a client can make the server hold or relay through the real app: SENDs parked in STOMP
 * transactions (bounded, and rate-limited as they arrive), typing frames (only inside an existing
 * conversation, never across a block, rate-limited) and message text PostgreSQL cannot store.
 */
import {
  CHAT_LIMIT_MESSAGES,
  CHAT_LIMITS,
  NOTIFY_STOMP_PATHS,
  SAFETY_MESSAGES,
  STOMP_PATHS,
  roomIdFor,
  type ChatErrorBody,
} from '@campus/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../../test/helper.js';
import { createListing, listen } from '../testing.js';
import { header, type Frame } from './frame.js';
import { rawClient, type RawClient } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

describe.each(variants)('STOMP send limits ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, redis });
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await t?.close();
  });
  // A full SEND burst for every test.
  beforeEach(() => t.clock.advance(60_000));

  async function connect(s: Student): Promise<RawClient> {
    const c = rawClient(url);
    clients.push(c);
    await c.opened;
    c.sendFrame('CONNECT', {
      'accept-version': '1.2',
      Authorization: `Bearer ${s.token}`,
      'heart-beat': '0,0',
    });
    const f = await c.nextFrame();
    if (f.command !== 'CONNECTED') throw new Error(`expected CONNECTED, got ${header(f, 'message')}`);
    c.sendFrame('SUBSCRIBE', { id: 'e', destination: STOMP_PATHS.errors, receipt: 'sub-e' });
    c.sendFrame('SUBSCRIBE', { id: 'p', destination: NOTIFY_STOMP_PATHS.presence, receipt: 'sub-p' });
    await expectReceipt(c, 'sub-e');
    await expectReceipt(c, 'sub-p');
    return c;
  }

  async function expectReceipt(c: RawClient, receipt: string, timeoutMs = 5_000): Promise<void> {
    const f = await c.nextFrame(timeoutMs);
    expect([f.command, header(f, 'receipt-id') ?? header(f, 'message')]).toEqual(['RECEIPT', receipt]);
  }

  async function expectRefusal(c: RawClient): Promise<ChatErrorBody> {
    const f = await c.nextFrame(5_000);
    expect([f.command, header(f, 'destination')]).toEqual(['MESSAGE', STOMP_PATHS.errors]);
    return JSON.parse(f.body.toString()) as ChatErrorBody;
  }

  async function expectErrorAndClose(c: RawClient, message: string): Promise<void> {
    const f: Frame = await c.nextFrame(5_000);
    expect([f.command, header(f, 'message')]).toEqual(['ERROR', message]);
    expect((await c.closed).code).toBe(1008);
  }

  async function pair() {
    const buyer = await createStudent(t);
    const seller = await createStudent(t);
    const listingId = await createListing(t, seller.id);
    const body = (content: string) => JSON.stringify({ content, listingId });
    return { buyer, seller, listingId, body, destination: `/app/chat.send/${buyer.id}/${seller.id}` };
  }

  const history = async (s: Student, roomId: string) => {
    const res = await asStudent(t, s, { method: 'GET', url: `/api/chats/${roomId}` });
    return res.statusCode === 404 ? [] : (res.json() as Array<{ content: string }>);
  };

  it('closes the session with ERROR past the SENDs one transaction may hold', async () => {
    const { buyer, seller, body, destination } = await pair();
    const c = await connect(buyer);
    c.sendFrame('BEGIN', { transaction: 'tx', receipt: 'b' });
    await expectReceipt(c, 'b');
    for (let i = 0; i < CHAT_LIMITS.maxTransactionFrames; i++) {
      t.clock.advance(1_000); // keep the rate limit out of the way: this is the frame cap
      c.sendFrame('SEND', { destination, transaction: 'tx', receipt: `s${i}` }, body(`m${i}`));
      await expectReceipt(c, `s${i}`);
    }
    c.sendFrame('SEND', { destination, transaction: 'tx', receipt: 'over' }, body('one too many'));
    await expectErrorAndClose(c, CHAT_LIMIT_MESSAGES.transactionTooLarge);
    expect(await history(buyer, roomIdFor(buyer.id, seller.id))).toEqual([]);
  });

  it('closes the session with ERROR past the body bytes one transaction may hold', async () => {
    const { buyer, destination } = await pair();
    const c = await connect(buyer);
    const big = 'x'.repeat(CHAT_LIMITS.maxTransactionBytes / 2 + 1);
    c.sendFrame('BEGIN', { transaction: 'tx' });
    c.sendFrame('SEND', { destination, transaction: 'tx', receipt: 'first' }, big);
    await expectReceipt(c, 'first');
    c.sendFrame('SEND', { destination, transaction: 'tx', receipt: 'second' }, big);
    await expectErrorAndClose(c, CHAT_LIMIT_MESSAGES.transactionTooLarge);
  });

  it('closes the session with ERROR past the open transactions a session may hold', async () => {
    const { buyer } = await pair();
    const c = await connect(buyer);
    for (let i = 0; i < CHAT_LIMITS.maxTransactionsPerSession; i++) {
      c.sendFrame('BEGIN', { transaction: `tx${i}`, receipt: `b${i}` });
      await expectReceipt(c, `b${i}`);
    }
    // Committing one frees its place.
    c.sendFrame('ABORT', { transaction: 'tx0', receipt: 'a0' });
    await expectReceipt(c, 'a0');
    c.sendFrame('BEGIN', { transaction: 'again', receipt: 'again' });
    await expectReceipt(c, 'again');
    c.sendFrame('BEGIN', { transaction: 'over', receipt: 'over' });
    await expectErrorAndClose(c, CHAT_LIMIT_MESSAGES.tooManyTransactions);
  });

  it('rate-limits SENDs as they are buffered, and does not charge them again on COMMIT', async () => {
    const { buyer, seller, body, destination } = await pair();
    const c = await connect(buyer);
    c.sendFrame('BEGIN', { transaction: 'tx' });
    for (let i = 0; i < CHAT_LIMITS.sendBurst; i++)
      c.sendFrame('SEND', { destination, transaction: 'tx', receipt: `s${i}` }, body(`m${i}`));
    c.sendFrame('SEND', { destination, transaction: 'tx', receipt: 'fast' }, body('too fast'));
    for (let i = 0; i < CHAT_LIMITS.sendBurst; i++) await expectReceipt(c, `s${i}`);
    expect(await expectRefusal(c)).toEqual({
      message: CHAT_LIMIT_MESSAGES.sendRateLimited,
      code: 'RATE_LIMITED',
      receiptId: 'fast',
    });
    c.sendFrame('COMMIT', { transaction: 'tx', receipt: 'commit' });
    // The session stays open; the COMMIT stores the 20 buffered SENDs (own copies are not subscribed).
    await expectReceipt(c, 'commit', 20_000); // twenty messages stored one after another
    const stored = await history(buyer, roomIdFor(buyer.id, seller.id));
    expect(stored.map((m) => m.content)).toEqual(
      Array.from({ length: CHAT_LIMITS.sendBurst }, (_, i) => `m${i}`),
    );
  });

  it('relays typing only inside an existing conversation and never across a block', async () => {
    const { buyer, seller, body, destination } = await pair();
    const room = roomIdFor(buyer.id, seller.id);
    const b = await connect(buyer);
    const s = await connect(seller);
    const typing = (receipt: string) =>
      b.sendFrame('SEND', { destination: `${NOTIFY_STOMP_PATHS.typingPrefix}${room}`, receipt }, '');

    // No message yet: refused, nothing reaches the seller.
    typing('t1');
    expect(await expectRefusal(b)).toEqual({
      message: CHAT_LIMIT_MESSAGES.noConversation,
      code: 'FORBIDDEN',
      receiptId: 't1',
    });

    b.sendFrame('SEND', { destination, receipt: 'first' }, body('Is it still available?'));
    await expectReceipt(b, 'first');
    typing('t2');
    await expectReceipt(b, 't2');
    const relayed = await s.nextFrame();
    expect(JSON.parse(relayed.body.toString())).toEqual({ type: 'typing', roomId: room, userId: buyer.id });

    const blocked = await asStudent(t, seller, { method: 'PUT', url: `/users/${buyer.id}/block` });
    expect(blocked.statusCode).toBeLessThan(300);
    t.clock.advance(10_000); // past the 3 s typing interval
    typing('t3');
    expect(await expectRefusal(b)).toEqual({
      message: SAFETY_MESSAGES.blocked,
      code: 'FORBIDDEN',
      receiptId: 't3',
    });
    // Nothing more reached the seller.
    s.sendFrame('SUBSCRIBE', { id: 'x', destination: STOMP_PATHS.inbox, receipt: 'fence' });
    await expectReceipt(s, 'fence');
  });

  it('counts typing frames against the SEND rate limit', async () => {
    const { buyer, seller, body, destination } = await pair();
    const room = roomIdFor(buyer.id, seller.id);
    const b = await connect(buyer);
    b.sendFrame('SEND', { destination, receipt: 'first' }, body('Hello'));
    await expectReceipt(b, 'first');
    for (let i = 1; i < CHAT_LIMITS.sendBurst; i++) {
      b.sendFrame('SEND', { destination: `${NOTIFY_STOMP_PATHS.typingPrefix}${room}`, receipt: `t${i}` }, '');
    }
    for (let i = 1; i < CHAT_LIMITS.sendBurst; i++) await expectReceipt(b, `t${i}`);
    b.sendFrame('SEND', { destination: `${NOTIFY_STOMP_PATHS.typingPrefix}${room}`, receipt: 'flood' }, '');
    expect((await expectRefusal(b)).code).toBe('RATE_LIMITED');
  });

  it('refuses a message holding U+0000 on the errors queue and keeps the session', async () => {
    const { buyer, seller, body, destination } = await pair();
    const c = await connect(buyer);
    c.sendFrame('SEND', { destination, receipt: 'nul' }, body('before\u0000after'));
    expect(await expectRefusal(c)).toEqual({
      message: CHAT_LIMIT_MESSAGES.controlCharacter,
      code: 'VALIDATION',
      receiptId: 'nul',
    });
    c.sendFrame('SEND', { destination, receipt: 'ok' }, body('plain text'));
    await expectReceipt(c, 'ok');
    expect((await history(buyer, roomIdFor(buyer.id, seller.id))).map((m) => m.content)).toEqual([
      'plain text',
    ]);
  });
});
