import {
  MESSAGES,
  REFRESHED_TOKEN_HEADER,
  STOMP_PATHS,
  type ChatErrorBody,
  roomIdFor,
  type ChatMessage,
  type ChatRoomSummary,
} from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
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
import { createListing, listen, multipartFile, parseMessage, sendAs } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(variants)('chat over STOMP and HTTP ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  let buyer: Student;
  let seller: Student;
  let third: Student;
  let listingId: number;
  let room: string;
  let sendTo: string;
  let uploadedUrl = '';
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

  async function history(
    student: Student,
    query = '',
  ): Promise<{ status: number; messages: ChatMessage[]; link: string | undefined }> {
    const res = await asStudent(t, student, { method: 'GET', url: `/api/chats/${room}${query}` });
    return {
      status: res.statusCode,
      messages: res.statusCode === 200 ? (res.json() as ChatMessage[]) : [],
      link: res.headers.link as string | undefined,
    };
  }

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

  it('has no history before the first message (404), and refuses a third student (403)', async () => {
    expect((await history(buyer)).status).toBe(404);
    const res = await asStudent(t, third, { method: 'GET', url: `/api/chats/${room}` });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MESSAGES.chatRoomForbidden, code: 'FORBIDDEN' });
    expect((await asStudent(t, buyer, { method: 'GET', url: '/api/chats/not-a-room' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/chats/${room}` })).statusCode).toBe(401);
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

  it('uploads a chat photo (JPEG by content, metadata stripped) and answers its URL', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .withExif({ IFD0: { Copyright: 'secret-gps-owner' } })
      .jpeg()
      .toBuffer();
    const res = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'a.jpg', jpeg),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^\/uploads\/[0-9a-f-]{36}\.jpg$/);
    uploadedUrl = res.body;
    const stored = await readFile(path.join(t.dataDir, 'uploads', res.body.slice('/uploads/'.length)));
    expect(stored.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(stored.includes(Buffer.from('secret-gps-owner'))).toBe(false);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const notJpeg = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'x.jpg', png),
    });
    expect(notJpeg.statusCode).toBe(400);
    expect(notJpeg.json()).toMatchObject({ message: MESSAGES.imageNotJpeg });
    const wrongField = await asStudent(t, buyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('photo', 'a.jpg', jpeg),
    });
    expect(wrongField.json()).toMatchObject({ message: MESSAGES.noFileUploaded });
    const empty = await asStudent(t, buyer, { method: 'POST', url: '/api/chats/upload', payload: {} });
    expect(empty.json()).toMatchObject({ message: MESSAGES.noFileUploaded });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'a.jpg', jpeg),
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('accepts an image message with blank text and one of our upload URLs, and exactly 2000 characters', async () => {
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

  it('pages history oldest first, catches up with ?after= and links the next and previous pages', async () => {
    const all = (await history(buyer, '?limit=500')).messages;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const ids = all.map((m) => m.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    const newest = await history(buyer, '?limit=2');
    expect(newest.messages.map((m) => m.id)).toEqual(ids.slice(-2));
    expect(newest.link).toBe(`</api/chats/${room}?before=${ids.at(-2)}&limit=2>; rel="prev"`);
    const older = await history(buyer, `?before=${ids.at(-2)}&limit=2`);
    expect(older.messages.map((m) => m.id)).toEqual(ids.slice(-4, -2));

    const after = await history(buyer, `?after=${ids[0]}&limit=2`);
    expect(after.messages.map((m) => m.id)).toEqual(ids.slice(1, 3));
    expect(after.link).toBe(`</api/chats/${room}?after=${ids[2]}&limit=2>; rel="next"`);
    const caughtUp = await history(buyer, `?after=${ids.at(-1)}`);
    expect(caughtUp).toMatchObject({ status: 200, messages: [] });
    expect((await history(buyer, '?limit=0')).status).toBe(400);
    expect((await history(buyer, '?after=abc')).status).toBe(400);
  });

  it('lists the caller’s rooms with peer, listing, last message and real unread counts', async () => {
    const inboxOf = async (s: Student) => {
      const res = await asStudent(t, s, { method: 'GET', url: '/api/chats' });
      expect(res.statusCode).toBe(200);
      return res.json() as ChatRoomSummary[];
    };
    const sellerRooms = await inboxOf(seller);
    expect(sellerRooms).toHaveLength(1);
    const r = sellerRooms[0]!;
    const msgs = (await history(seller, '?limit=500')).messages;
    const fromBuyer = msgs.filter((m) => m.senderId === buyer.id).length;
    expect(r).toMatchObject({
      id: room,
      roomKey: room,
      buyerId: buyer.id,
      sellerId: seller.id,
      listingId,
      messageCount: msgs.length,
      unreadCount: fromBuyer,
      peer: { id: buyer.id, firstName: 'Bea', lastName: 'Buyer' },
      listing: { id: listingId, name: 'Desk lamp', thumbnailUrl: null },
    });
    expect(r.lastMessage).toEqual(msgs.at(-1));
    expect(JSON.stringify(sellerRooms)).not.toContain('@');
    expect(await inboxOf(third)).toEqual([]);

    const read = await asStudent(t, seller, { method: 'POST', url: `/api/chats/${room}/read` });
    expect(read.statusCode).toBe(200);
    expect((await inboxOf(seller))[0]?.unreadCount).toBe(0);
    expect((await asStudent(t, third, { method: 'POST', url: `/api/chats/${room}/read` })).statusCode).toBe(
      403,
    );

    // A newer room goes first.
    const otherListing = await createListing(t, third.id, 'Calculus book');
    await sendAs(t, seller.id, seller.id, third.id, {
      content: 'Still have the book?',
      listingId: otherListing,
    });
    const rooms = await inboxOf(seller);
    expect(rooms.map((x) => x.peer.id)).toEqual([third.id, buyer.id]);
    expect(rooms[0]).toMatchObject({ unreadCount: 0, messageCount: 1, listing: { name: 'Calculus book' } });
    expect((await inboxOf(third))[0]).toMatchObject({
      unreadCount: 1,
      peer: { id: seller.id, firstName: 'Sam' },
    });
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
