/**
 * Chat across campuses (features.md §E): a student reads, subscribes to, writes into, types in and
 * marks read only rooms of their own campus. A room, listing or student of another campus answers
 * exactly like an unknown one, over HTTP and over STOMP (the stock @stomp/stompjs client).
 */
import {
  CHAT_LIMIT_MESSAGES,
  MESSAGES,
  NOTIFY_STOMP_PATHS,
  STOMP_PATHS,
  roomIdFor,
  type ChatErrorBody,
  type ChatRoomSummary,
} from '@campus/contract';
import type { Client, IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg } from '../listings/testing.js';
import { CHAT_PHOTO_EXPIRE_JOB } from './photos.js';
import { collect, connectOrThrow, connectStomp, receiptFor } from './stomp/testing.js';
import { createListing, listen, multipartFile, sendAs } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

/** An id no student has. */
const NOBODY = 999_999;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(variants)('chat across campuses ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  let msuBuyer: Student;
  let msuSeller: Student;
  let uwBuyer: Student;
  let uwSeller: Student;
  let msuListing: number;
  let uwListing: number;
  let msuRoom: string;
  let uwRoom: string;
  /** A room of MSU naming a UW student, as no code path writes it any more (rows from before). */
  let mixedRoom: string;
  const open: Client[] = [];

  async function connect(student: Student): Promise<Client> {
    const client = await connectOrThrow(url, { Authorization: `Bearer ${student.token}` });
    open.push(client);
    return client;
  }

  /** SUBSCRIBE with a receipt: 'ok', or the message of the ERROR frame that refused it. */
  async function subscribe(student: Student, destination: string): Promise<string> {
    const client = await connect(student);
    const refused = new Promise<string>(
      (resolve) => (client.onStompError = (f) => resolve(`ERROR: ${f.headers['message'] ?? ''}`)),
    );
    client.subscribe(destination, () => {}, { receipt: 'sub' });
    return Promise.race([receiptFor(client, 'sub', 5_000).then(() => 'ok'), refused]);
  }

  /** One SEND refused for an application reason: its message on /user/queue/errors, no RECEIPT. */
  async function refusal(client: Client, destination: string, body: string): Promise<ChatErrorBody> {
    const errors = collect(client, STOMP_PATHS.errors, { receipt: 'errors' });
    await receiptFor(client, 'errors');
    let receipted = false;
    client.watchForReceipt('refused', () => (receipted = true));
    client.publish({ destination, body, headers: { receipt: 'refused' } });
    const refused = JSON.parse((await errors.next(5_000)).body) as ChatErrorBody;
    errors.subscription.unsubscribe();
    expect(receipted).toBe(false);
    return refused;
  }

  /** A student's live queue, subscribed before the test acts (receipt awaited). */
  async function watch(student: Student, destination: string) {
    const client = await connect(student);
    const queue = collect(client, destination, { receipt: `listen-${destination}` });
    await receiptFor(client, `listen-${destination}`);
    return { client, queue };
  }

  const body = (listingId: number, content = 'hi') => JSON.stringify({ content, listingId });
  const sendTo = (buyerId: number, sellerId: number) => `${STOMP_PATHS.sendPrefix}${buyerId}/${sellerId}`;
  const typingIn = (roomId: string) => `${NOTIFY_STOMP_PATHS.typingPrefix}${roomId}`;
  const inbox = async (s: Student) =>
    ((await asStudent(t, s, { method: 'GET', url: '/api/chats' })).json() as ChatRoomSummary[]).map(
      (r) => r.id,
    );
  const answer = async (s: Student | null, method: 'GET' | 'POST', path: string) => {
    const res = s ? await asStudent(t, s, { method, url: path }) : await t.app.inject({ method, url: path });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, redis, env: TWO_CAMPUSES });
    url = await listen(t.app);
    msuBuyer = await createStudent(t, { firstName: 'Mia' });
    msuSeller = await createStudent(t, { firstName: 'Max' });
    uwBuyer = await createStudent(t, { firstName: 'Uma', domain: TEST_CAMPUS_DOMAINS.uw });
    uwSeller = await createStudent(t, { firstName: 'Ulf', domain: TEST_CAMPUS_DOMAINS.uw });
    expect(uwBuyer.campusId).not.toBe(msuBuyer.campusId);
    msuListing = await createListing(t, msuSeller.id, 'MSU lamp');
    uwListing = await createListing(t, uwSeller.id, 'UW kettle');
    msuRoom = roomIdFor(msuBuyer.id, msuSeller.id);
    uwRoom = roomIdFor(uwBuyer.id, uwSeller.id);
    await sendAs(t, msuBuyer.id, msuBuyer.id, msuSeller.id, { content: 'MSU hello', listingId: msuListing });
    await sendAs(t, uwBuyer.id, uwBuyer.id, uwSeller.id, { content: 'UW hello', listingId: uwListing });

    mixedRoom = roomIdFor(msuBuyer.id, uwBuyer.id);
    const now = t.clock.now();
    await t.app.ctx.db.kysely
      .insertInto('chat_rooms')
      .values({
        id: mixedRoom,
        low_user_id: Math.min(msuBuyer.id, uwBuyer.id),
        high_user_id: Math.max(msuBuyer.id, uwBuyer.id),
        buyer_id: uwBuyer.id,
        seller_id: msuBuyer.id,
        listing_id: null,
        message_count: 1,
        created_at: now,
        last_activity_at: now,
        campus_id: msuBuyer.campusId,
      })
      .execute();
    await t.app.ctx.db.kysely
      .insertInto('chat_messages')
      .values({
        room_id: mixedRoom,
        sender_id: msuBuyer.id,
        content: 'from before',
        url: null,
        listing_id: null,
        sent_at: now,
        campus_id: msuBuyer.campusId,
      })
      .execute();
  });

  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await t?.close();
  });

  // A full SEND burst (and a free typing slot) for every test.
  beforeEach(() => t.clock.advance(60_000));

  it("lists only the student's own campus's rooms and answers another campus's room like an unknown one", async () => {
    expect(await inbox(uwBuyer)).toEqual([uwRoom]);
    expect(await inbox(uwSeller)).toEqual([uwRoom]);
    expect(await inbox(msuSeller)).toEqual([msuRoom]);

    // Same campus: the room's history.
    expect((await answer(uwBuyer, 'GET', `/api/chats/${uwRoom}`)).status).toBe(200);
    // A room of another campus naming the student is not found, exactly like a room with nobody.
    const unknown = await answer(uwBuyer, 'GET', `/api/chats/${roomIdFor(uwBuyer.id, NOBODY)}`);
    expect(unknown).toEqual({ status: 404, body: { message: MESSAGES.chatNoHistory, code: 'NOT_FOUND' } });
    expect(await answer(uwBuyer, 'GET', `/api/chats/${mixedRoom}`)).toEqual(unknown);
    // Another campus's room between two others: refused like any room one is not in.
    expect(await answer(uwBuyer, 'GET', `/api/chats/${msuRoom}`)).toEqual(
      await answer(msuSeller, 'GET', `/api/chats/${uwRoom}`),
    );
    expect((await answer(uwBuyer, 'GET', `/api/chats/${msuRoom}`)).status).toBe(403);

    for (const [method, path] of [
      ['GET', '/api/chats'],
      ['GET', `/api/chats/${uwRoom}`],
      ['POST', `/api/chats/${uwRoom}/read`],
      ['POST', '/api/chats/upload'],
    ] as const) {
      expect((await answer(null, method, path)).status).toBe(401);
    }
    const anonymous = await connectStomp(url, {});
    expect(anonymous.ok).toBe(false);
    if (!anonymous.ok) expect(anonymous.error?.headers['message']).toBe(MESSAGES.unauthorized);
  });

  it('marks read and tells "Seen" within a campus only', async () => {
    const uwPresence = await watch(uwBuyer, NOTIFY_STOMP_PATHS.presence);
    const msuPresence = await watch(msuBuyer, NOTIFY_STOMP_PATHS.presence);

    // Towards a student of another campus: answered like a room with nobody, nothing marked or told.
    const nobodyRoom = roomIdFor(uwBuyer.id, NOBODY);
    expect(await answer(uwBuyer, 'POST', `/api/chats/${nobodyRoom}/read`)).toEqual({
      status: 200,
      body: { roomId: nobodyRoom, lastReadMessageId: null },
    });
    expect(await answer(uwBuyer, 'POST', `/api/chats/${mixedRoom}/read`)).toEqual({
      status: 200,
      body: { roomId: mixedRoom, lastReadMessageId: null },
    });
    expect(await answer(msuBuyer, 'POST', `/api/chats/${mixedRoom}/read`)).toEqual({
      status: 200,
      body: { roomId: mixedRoom, lastReadMessageId: null },
    });
    const marks = await t.app.ctx.db.kysely
      .selectFrom('chat_reads')
      .select('user_id')
      .where('room_id', '=', mixedRoom)
      .execute();
    expect(marks).toEqual([]);
    expect((await answer(uwBuyer, 'POST', `/api/chats/${msuRoom}/read`)).status).toBe(403);

    // Within the campus: the seller reads, the buyer sees it.
    const read = await answer(uwSeller, 'POST', `/api/chats/${uwRoom}/read`);
    expect(read.status).toBe(200);
    const seen = JSON.parse((await uwPresence.queue.next(5_000)).body) as { type: string; roomId: string };
    expect(seen).toMatchObject({ type: 'seen', roomId: uwRoom, userId: uwSeller.id });
    await sleep(100);
    expect(uwPresence.queue.messages).toHaveLength(1);
    expect(msuPresence.queue.messages).toHaveLength(0);
  });

  it('refuses SUBSCRIBE to a room with a student of another campus exactly like a room one is not in', async () => {
    const notIn = await subscribe(uwBuyer, `${STOMP_PATHS.subscribePrefix}${msuRoom}`);
    expect(notIn).toBe(`ERROR: ${MESSAGES.chatRoomForbidden}`);
    for (const [student, roomId] of [
      [uwBuyer, roomIdFor(uwBuyer.id, msuSeller.id)],
      [uwBuyer, mixedRoom],
      [msuBuyer, mixedRoom],
      [msuSeller, roomIdFor(msuSeller.id, uwSeller.id)],
      [uwBuyer, roomIdFor(uwBuyer.id, NOBODY)],
    ] as const) {
      expect([roomId, await subscribe(student, `${STOMP_PATHS.subscribePrefix}${roomId}`)]).toEqual([
        roomId,
        notIn,
      ]);
    }
    // The student's own campus: accepted, and a room not written in yet too.
    expect(await subscribe(uwBuyer, `${STOMP_PATHS.subscribePrefix}${uwRoom}`)).toBe('ok');
    const fresh = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    expect(await subscribe(uwBuyer, `${STOMP_PATHS.subscribePrefix}${roomIdFor(uwBuyer.id, fresh.id)}`)).toBe(
      'ok',
    );
  });

  it('refuses a SEND towards a student or about a listing of another campus like unknown ones, and delivers nothing', async () => {
    const msuSellerInbox = await watch(msuSeller, STOMP_PATHS.inbox);
    const msuBuyerInbox = await watch(msuBuyer, STOMP_PATHS.inbox);
    const uw = await connect(uwBuyer);
    const uwOwner = await connect(uwSeller);
    const msu = await connect(msuBuyer);

    // About another campus's listing: as about a listing that does not exist.
    const unknownListing = await refusal(uw, sendTo(uwBuyer.id, msuSeller.id), body(NOBODY));
    expect(unknownListing).toMatchObject({ message: MESSAGES.listingNotFound, code: 'NOT_FOUND' });
    expect(await refusal(uw, sendTo(uwBuyer.id, msuSeller.id), body(msuListing))).toEqual(unknownListing);
    expect(await refusal(msu, sendTo(msuBuyer.id, uwSeller.id), body(uwListing))).toEqual(unknownListing);
    // Towards another campus's student about one's own listing: as towards a student who does not exist.
    const unknownPeer = await refusal(uwOwner, sendTo(NOBODY, uwSeller.id), body(uwListing));
    expect(unknownPeer).toMatchObject({ message: MESSAGES.chatPeerNotFound, code: 'NOT_FOUND' });
    expect(await refusal(uwOwner, sendTo(msuBuyer.id, uwSeller.id), body(uwListing))).toEqual(unknownPeer);

    // Within the campus the same session writes on.
    const sent = receiptFor(uw, 'ok');
    uw.publish({
      destination: sendTo(uwBuyer.id, uwSeller.id),
      body: body(uwListing),
      headers: { receipt: 'ok' },
    });
    await sent;

    await sleep(100);
    const delivered = (q: { messages: IMessage[] }) => q.messages.length;
    expect([delivered(msuSellerInbox.queue), delivered(msuBuyerInbox.queue)]).toEqual([0, 0]);
    const rooms = await t.app.ctx.db.kysely
      .selectFrom('chat_rooms')
      .select('id')
      .where('id', 'in', [roomIdFor(uwBuyer.id, msuSeller.id), roomIdFor(msuBuyer.id, uwSeller.id)])
      .execute();
    expect(rooms).toEqual([]);
  });

  it('refuses typing towards a student of another campus like typing towards an unknown one, and relays nothing', async () => {
    const msuPresence = await watch(msuBuyer, NOTIFY_STOMP_PATHS.presence);
    const uwPresence = await watch(uwSeller, NOTIFY_STOMP_PATHS.presence);
    const uw = await connect(uwBuyer);
    const msu = await connect(msuBuyer);

    const unknown = await refusal(uw, typingIn(roomIdFor(uwBuyer.id, NOBODY)), '');
    expect(unknown).toMatchObject({ message: CHAT_LIMIT_MESSAGES.noConversation, code: 'FORBIDDEN' });
    expect(await refusal(uw, typingIn(roomIdFor(uwBuyer.id, msuSeller.id)), '')).toEqual(unknown);
    // Even in a room that holds messages: its other student is of another campus.
    expect(await refusal(uw, typingIn(mixedRoom), '')).toEqual(unknown);
    expect(await refusal(msu, typingIn(mixedRoom), '')).toEqual(unknown);

    // Within the campus typing is relayed.
    const typed = receiptFor(uw, 'typing');
    uw.publish({ destination: typingIn(uwRoom), body: '', headers: { receipt: 'typing' } });
    await typed;
    expect(JSON.parse((await uwPresence.queue.next(5_000)).body)).toEqual({
      type: 'typing',
      roomId: uwRoom,
      userId: uwBuyer.id,
    });
    await sleep(100);
    expect(msuPresence.queue.messages).toHaveLength(0);
  });

  it("files a chat photo under its uploader's campus; another campus's student cannot send it", async () => {
    const res = await asStudent(t, uwBuyer, {
      method: 'POST',
      url: '/api/chats/upload',
      ...multipartFile('image', 'p.jpg', await makeJpeg(64, 48)),
    });
    expect(res.statusCode).toBe(200);
    const photo = res.body;
    const row = await t.app.ctx.db.kysely
      .selectFrom('chat_uploads')
      .select('campus_id')
      .where('image_key', '=', photo.slice('/uploads/'.length))
      .executeTakeFirstOrThrow();
    expect(Number(row.campus_id)).toBe(uwBuyer.campusId);
    // Its removal job runs in that campus too.
    const job = await t.app.ctx.db.kysely
      .selectFrom('jobs')
      .select('campus_id')
      .where('key', '=', `${CHAT_PHOTO_EXPIRE_JOB}:${photo.slice('/uploads/'.length)}`)
      .executeTakeFirstOrThrow();
    expect(Number(job.campus_id)).toBe(uwBuyer.campusId);

    const msu = await connect(msuBuyer);
    const withPhoto = JSON.stringify({ content: '', url: photo, listingId: msuListing });
    expect(await refusal(msu, sendTo(msuBuyer.id, msuSeller.id), withPhoto)).toMatchObject({
      message: CHAT_LIMIT_MESSAGES.photoNotYours,
    });
    // Its uploader sends it within their campus.
    const uw = await connect(uwBuyer);
    const sent = receiptFor(uw, 'photo');
    uw.publish({
      destination: sendTo(uwBuyer.id, uwSeller.id),
      body: JSON.stringify({ content: '', url: photo, listingId: uwListing }),
      headers: { receipt: 'photo' },
    });
    await sent;
  });
});
