/**
 * Chat over HTTP (features.md §C): a room's history, paged both ways with Link headers, and the
 * caller's inbox with the peer, the listing, the last message and real unread counts.
 */
import { MESSAGES, roomIdFor, type ChatRoomSummary } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { chatHistory, createListing, sendAs } from './testing.js';

describe.each(dialects)('chat history and inbox over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let buyer: Student;
  let seller: Student;
  let third: Student;
  let listingId: number;
  let room: string;

  const history = (student: Student, query = '') => chatHistory(t, student, room, query);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    buyer = await createStudent(t, { firstName: 'Bea', lastName: 'Buyer' });
    seller = await createStudent(t, { firstName: 'Sam', lastName: 'Seller' });
    third = await createStudent(t, { firstName: 'Tom', lastName: 'Third' });
    listingId = await createListing(t, seller.id, 'Desk lamp');
    room = roomIdFor(buyer.id, seller.id);
  });

  afterAll(() => t.close());

  it('has no history before the first message (404), and refuses a third student (403)', async () => {
    expect((await history(buyer)).status).toBe(404);
    const res = await asStudent(t, third, { method: 'GET', url: `/api/chats/${room}` });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MESSAGES.chatRoomForbidden, code: 'FORBIDDEN' });
    expect((await asStudent(t, buyer, { method: 'GET', url: '/api/chats/not-a-room' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/chats/${room}` })).statusCode).toBe(401);
  });

  it('pages history oldest first, catches up with ?after= and links the next and previous pages', async () => {
    // Five messages, both ways.
    for (const [n, sender] of [buyer, seller, buyer, seller, buyer].entries())
      await sendAs(t, sender.id, buyer.id, seller.id, { content: `message ${n + 1}`, listingId });
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
});
