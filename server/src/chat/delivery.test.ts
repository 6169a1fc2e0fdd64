/**
 * Chat over STOMP (features.md §C): messages stored before they are delivered, to both students
 * and every tab; refusals with the reason; a client catching up after a drop; sessions closed when
 * the password changes. On each dialect, and on PostgreSQL with Redis fan-out where there is one.
 */
import {
  MESSAGES,
  REFRESHED_TOKEN_HEADER,
  STOMP_PATHS,
  type ChatErrorBody,
  roomIdFor,
} from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { collect, connectOrThrow, connectStomp, receiptFor } from './stomp/testing.js';
import { chatHistory, createListing, listen, parseMessage, uploadChatPhoto } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(variants)('chat delivery over STOMP ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  let buyer: Student;
  let seller: Student;
  let third: Student;
  let listingId: number;
  let room: string;
  let sendTo: string;
  const open: Client[] = [];

  async function connect(student: Pick<Student, 'token'>): Promise<Client> {
    const client = await connectOrThrow(url, bearer(student));
    open.push(client);
    return client;
  }

  /** Sends one SEND and expects ERROR + close; returns the ERROR message header. */
  async function sendExpectingError(student: Student, destination: string, body: string): Promise<string> {
    const outcome = await connectStomp(url, bearer(student));
    if (!outcome.ok) throw new Error('connect failed');
    const error = new Promise<string>(
      (resolve) => (outcome.client.onStompError = (f) => resolve(f.headers['message'] ?? '')),
    );
    const closed = new Promise<void>((resolve) => (outcome.client.onWebSocketClose = () => resolve()));
    outcome.client.publish({ destination, body, headers: { receipt: 'r' } });
    const message = await error;
    await closed;
    await outcome.client.deactivate();
    return message;
  }

  /**
   * Sends one SEND refused for an application reason: a MESSAGE on /user/queue/errors with
   * {message, code, receiptId}, no RECEIPT, and the session stays open.
   */
  async function sendExpectingAppError(student: Student, destination: string, body: string): Promise<string> {
    const client = await connect(student);
    const errors = collect(client, STOMP_PATHS.errors);
    let receipted = false;
    client.watchForReceipt('r-app', () => (receipted = true));
    client.publish({ destination, body, headers: { receipt: 'r-app' } });
    const refused = JSON.parse((await errors.next()).body) as ChatErrorBody;
    expect(refused.receiptId).toBe('r-app');
    expect(refused.code).toMatch(/^[A-Z_]+$/);
    // Still usable: a SUBSCRIBE with a receipt is answered.
    client.subscribe(STOMP_PATHS.inbox, () => {}, { receipt: 'still-open' });
    await receiptFor(client, 'still-open');
    expect(receipted).toBe(false);
    expect(client.connected).toBe(true);
    return refused.message;
  }

  const history = (student: Student, query = '') => chatHistory(t, student, room, query);

  beforeAll(async () => {
    t = await createTestApp({ dialect, redis });
    url = await listen(t.app);
    buyer = await createStudent(t, { firstName: 'Bea', lastName: 'Buyer' });
    seller = await createStudent(t, { firstName: 'Sam', lastName: 'Seller' });
    third = await createStudent(t, { firstName: 'Tom', lastName: 'Third' });
    listingId = await createListing(t, seller.id, 'Desk lamp');
    room = roomIdFor(buyer.id, seller.id);
    sendTo = `/app/chat.send/${buyer.id}/${seller.id}`;
  });

  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await t?.close();
  });

  it('uses the broker this configuration asks for', () => {
    expect(t.app.chat.broker.kind).toBe(redis ? 'redis' : 'memory');
  });

  it('refuses CONNECT with a bad or missing token', async () => {
    const bad = await connectStomp(url, { Authorization: 'Bearer not-a-jwt' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error?.headers['message']).toBe(MESSAGES.unauthorized);
    const missing = await connectStomp(url, {});
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error?.headers['message']).toBe(MESSAGES.unauthorized);
  });

  it('stores, then delivers to both parties and the sender’s second tab, with a receipt after storing', async () => {
    const tab1 = await connect(buyer);
    const tab2 = await connect(buyer);
    const sellerClient = await connect(seller);
    const inbox1 = collect(tab1, `/user/queue/chat/${room}`);
    const inbox2 = collect(tab2, `/user/queue/chat/${room}`);
    const sellerRoom = collect(sellerClient, `/user/queue/chat/${room}`);
    const sellerAll = collect(sellerClient, '/user/queue/chats', { receipt: 'sub-all' });
    await receiptFor(sellerClient, 'sub-all');

    const receipt = receiptFor(tab1, 'm1');
    tab1.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'Is the lamp still available?', listingId }),
      headers: { receipt: 'm1' },
    });
    await receipt;
    // Receipt means stored.
    const stored = await history(seller);
    expect(stored.status).toBe(200);
    expect(stored.messages.map((m) => m.content)).toEqual(['Is the lamp still available?']);

    const got = await Promise.all([inbox1.next(), inbox2.next(), sellerRoom.next(), sellerAll.next()]);
    for (const m of got) {
      const msg = parseMessage(m.body);
      expect(msg).toEqual(stored.messages[0]);
      expect(m.headers['message-id']).toBe(String(msg.id));
      expect(m.headers['content-type']).toBe('application/json');
    }
    const msg = parseMessage(got[0].body);
    expect(msg).toMatchObject({ roomId: room, senderId: buyer.id, listingId, url: null });
    expect(Object.keys(msg).sort()).toEqual([
      'content',
      'id',
      // features.md §A: every message has a kind; typed ones are 'text'.
      'kind',
      'listingId',
      'roomId',
      'senderId',
      'sentAt',
      'url',
    ]);
    expect(got[0].body).not.toContain('@');
    expect(new Date(msg.sentAt).toISOString()).toBe(msg.sentAt);

    // The seller answers; the buyer's tabs get it too.
    sellerClient.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'Yes! Meet at the library?', listingId }),
    });
    expect(parseMessage((await inbox1.next()).body).senderId).toBe(seller.id);
    expect(parseMessage((await inbox2.next()).body).content).toBe('Yes! Meet at the library?');
  });

  it('never delivers a message the database refused to store', async () => {
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_boom before insert on chat_messages when new.content = 'boom' begin select raise(abort, 'refused'); end`.execute(
        t.app.ctx.db.kysely,
      );
    } else {
      await sql`create function refuse_boom() returns trigger as $$ begin if new.content = 'boom' then raise exception 'refused'; end if; return new; end $$ language plpgsql`.execute(
        t.app.ctx.db.kysely,
      );
      await sql`create trigger refuse_boom before insert on chat_messages for each row execute function refuse_boom()`.execute(
        t.app.ctx.db.kysely,
      );
    }
    try {
      const sellerClient = await connect(seller);
      const sellerRoom = collect(sellerClient, `/user/queue/chat/${room}`, { receipt: 's' });
      await receiptFor(sellerClient, 's');
      const before = (await history(seller)).messages.length;
      expect(await sendExpectingError(buyer, sendTo, JSON.stringify({ content: 'boom', listingId }))).toBe(
        'Internal server error',
      );
      await sleep(100);
      expect(sellerRoom.messages).toHaveLength(0);
      expect((await history(seller)).messages).toHaveLength(before);
    } finally {
      await sql`drop trigger refuse_boom${sql.raw(dialect === 'postgres' ? ' on chat_messages' : '')}`.execute(
        t.app.ctx.db.kysely,
      );
    }
  });

  it('lets a third student neither subscribe to nor write into the room', async () => {
    const outcome = await connectStomp(url, bearer(third));
    if (!outcome.ok) throw new Error('connect failed');
    const error = new Promise<string>(
      (resolve) => (outcome.client.onStompError = (f) => resolve(f.headers['message'] ?? '')),
    );
    outcome.client.subscribe(`/user/queue/chat/${room}`, () => {});
    expect(await error).toBe(MESSAGES.chatRoomForbidden);
    await outcome.client.deactivate();

    expect(await sendExpectingAppError(third, sendTo, JSON.stringify({ content: 'hi', listingId }))).toBe(
      MESSAGES.chatRoomForbidden,
    );
    // Nor pretend to be someone else's buyer.
    expect(
      await sendExpectingAppError(
        third,
        `/app/chat.send/${buyer.id}/${third.id}`,
        JSON.stringify({ content: 'hi', listingId }),
      ),
    ).toBe(MESSAGES.chatRoomForbidden);
  });

  it('refuses messages that break the rules, with the reason', async () => {
    const body = (o: object) => JSON.stringify({ content: 'hello', listingId, ...o });
    expect(await sendExpectingAppError(seller, `/app/chat.send/${seller.id}/${seller.id}`, body({}))).toBe(
      MESSAGES.chatSelf,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ listingId: 999_999 }))).toBe(
      MESSAGES.listingNotFound,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ content: '   ' }))).toBe(
      MESSAGES.chatContentRequired,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ content: 'x'.repeat(2001) }))).toBe(
      MESSAGES.chatContentTooLong,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ url: 'https://evil.test/x.jpg' }))).toBe(
      MESSAGES.chatImageNotOurs,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ url: '/uploads/../secret' }))).toBe(
      MESSAGES.chatImageNotOurs,
    );
    expect(await sendExpectingAppError(buyer, sendTo, body({ url: '/uploads/anything.jpg' }))).toBe(
      MESSAGES.chatImageNotOurs,
    );
    expect(await sendExpectingAppError(buyer, sendTo, 'not json')).toBe(MESSAGES.chatInvalidBody);
    expect(await sendExpectingError(buyer, '/app/elsewhere', body({}))).toBe(MESSAGES.chatUnknownDestination);
    expect(await sendExpectingAppError(buyer, `/app/chat.send/${buyer.id}/${third.id}`, body({}))).toBe(
      MESSAGES.chatRoomForbidden,
    );
  });

  it('accepts an image message with blank text and one of our upload URLs, and exactly 2000 characters', async () => {
    const uploadedUrl = await uploadChatPhoto(t, buyer);
    const client = await connect(buyer);
    const inbox = collect(client, `/user/queue/chat/${room}`);
    client.publish({
      destination: sendTo,
      body: JSON.stringify({ content: '', listingId, url: uploadedUrl }),
    });
    expect(parseMessage((await inbox.next()).body)).toMatchObject({ content: '', url: uploadedUrl });
    client.publish({ destination: sendTo, body: JSON.stringify({ content: 'y'.repeat(2000), listingId }) });
    expect(parseMessage((await inbox.next()).body).content).toHaveLength(2000);
  });

  it('lets a client that dropped catch up with ?after= without missing or repeating anything', async () => {
    const sellerClient = await connect(seller);
    let buyerClient = await connect(buyer);
    let inbox = collect(buyerClient, `/user/queue/chat/${room}`, { receipt: 'b' });
    await receiptFor(buyerClient, 'b');
    sellerClient.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'before the drop', listingId }),
    });
    const lastSeen = parseMessage((await inbox.next()).body).id;

    // Wi-Fi goes away.
    await buyerClient.deactivate();
    for (const n of [1, 2, 3]) {
      const r = receiptFor(sellerClient, `gap-${n}`);
      sellerClient.publish({
        destination: sendTo,
        body: JSON.stringify({ content: `while away ${n}`, listingId }),
        headers: { receipt: `gap-${n}` },
      });
      await r;
    }

    // Reconnect: subscribe first, then fetch what was missed.
    buyerClient = await connect(buyer);
    inbox = collect(buyerClient, `/user/queue/chat/${room}`, { receipt: 'b2' });
    await receiptFor(buyerClient, 'b2');
    const missed = await history(buyer, `?after=${lastSeen}`);
    expect(missed.messages.map((m) => m.content)).toEqual(['while away 1', 'while away 2', 'while away 3']);
    sellerClient.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'after the drop', listingId }),
    });
    const live = parseMessage((await inbox.next()).body);
    expect(live.content).toBe('after the drop');
    expect(missed.messages.map((m) => m.id)).not.toContain(live.id);
  });

  it('closes the open sessions of a student who changed their password, and refuses the old token', async () => {
    const student = await createStudent(t);
    const outcome = await connectStomp(url, bearer(student));
    if (!outcome.ok) throw new Error('connect failed');
    const error = new Promise<string>(
      (resolve) => (outcome.client.onStompError = (f) => resolve(f.headers['message'] ?? '')),
    );
    const changed = await asStudent(t, student, {
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: student.password, newPassword: 'a-brand-new-passphrase-77' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await error).toBe(MESSAGES.chatSessionRevoked);
    await outcome.client.deactivate();

    const old = await connectStomp(url, bearer(student));
    expect(old.ok).toBe(false);
    const fresh = changed.headers[REFRESHED_TOKEN_HEADER];
    expect(typeof fresh).toBe('string');
    const again = await connectOrThrow(url, { Authorization: `Bearer ${String(fresh)}` });
    await again.deactivate();
  });
});
