import { MESSAGES, roomIdFor } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, redisUrl, type Student, type TestApp } from '../../test/helper.js';
import { collect, connectOrThrow, connectStomp, receiptFor } from './stomp/testing.js';
import { createListing, listen, pairedApps, parseMessage } from './testing.js';

const enabled = process.env.TEST_DATABASE_URL !== undefined && redisUrl !== undefined;

describe.skipIf(!enabled)('chat across two processes sharing PostgreSQL and Redis', () => {
  let pair: Awaited<ReturnType<typeof pairedApps>>;
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  let buyer: Student;
  let seller: Student;
  let listingId: number;
  let room: string;
  let sendTo: string;
  const open: Client[] = [];

  async function connect(url: string, s: Student): Promise<Client> {
    const c = await connectOrThrow(url, { Authorization: `Bearer ${s.token}` });
    open.push(c);
    return c;
  }

  beforeAll(async () => {
    pair = await pairedApps(redisUrl!);
    [a, b] = pair.apps;
    urlA = await listen(a.app);
    urlB = await listen(b.app);
    buyer = await createStudent(a, { firstName: 'Ann' });
    seller = await createStudent(b, { firstName: 'Ben' });
    listingId = await createListing(a, seller.id, 'Bike');
    room = roomIdFor(buyer.id, seller.id);
    sendTo = `/app/chat.send/${buyer.id}/${seller.id}`;
  });

  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await pair?.close();
  });

  it('delivers a message sent on process A to the peer on process B and back, and to the sender’s tab on B', async () => {
    expect(a.app.chat.broker.kind).toBe('redis');
    const buyerOnA = await connect(urlA, buyer);
    const buyerOnB = await connect(urlB, buyer);
    const sellerOnB = await connect(urlB, seller);
    const inboxA = collect(buyerOnA, `/user/queue/chat/${room}`, { receipt: 'sa' });
    const inboxBuyerB = collect(buyerOnB, `/user/queue/chat/${room}`, { receipt: 'sb' });
    const inboxSeller = collect(sellerOnB, `/user/queue/chat/${room}`, { receipt: 'sc' });
    await Promise.all([receiptFor(buyerOnA, 'sa'), receiptFor(buyerOnB, 'sb'), receiptFor(sellerOnB, 'sc')]);

    buyerOnA.publish({ destination: sendTo, body: JSON.stringify({ content: 'Hi from A', listingId }) });
    const [own, otherTab, peer] = await Promise.all([inboxA.next(), inboxBuyerB.next(), inboxSeller.next()]);
    expect(parseMessage(peer.body)).toMatchObject({ content: 'Hi from A', senderId: buyer.id, roomId: room });
    expect(parseMessage(otherTab.body)).toEqual(parseMessage(peer.body));
    expect(parseMessage(own.body)).toEqual(parseMessage(peer.body));

    sellerOnB.publish({ destination: sendTo, body: JSON.stringify({ content: 'Hi from B', listingId }) });
    expect(parseMessage((await inboxA.next()).body)).toMatchObject({
      content: 'Hi from B',
      senderId: seller.id,
    });

    // Both processes read the same history.
    const fromA = await asStudent(a, seller, { method: 'GET', url: `/api/chats/${room}` });
    const fromB = await asStudent(b, buyer, { method: 'GET', url: `/api/chats/${room}` });
    expect(fromA.json()).toEqual(fromB.json());
    expect((fromA.json() as unknown[]).length).toBe(2);
  });

  it('a burst of messages from both sides arrives complete on both processes', async () => {
    const buyerOnA = await connect(urlA, buyer);
    const sellerOnB = await connect(urlB, seller);
    const atA = collect(buyerOnA, `/user/queue/chat/${room}`, { receipt: 'x' });
    const atB = collect(sellerOnB, `/user/queue/chat/${room}`, { receipt: 'y' });
    await Promise.all([receiptFor(buyerOnA, 'x'), receiptFor(sellerOnB, 'y')]);
    // 20 each: a full burst of the SEND rate limit (5/s, bursts of 20), refilled first.
    a.clock.advance(5_000);
    b.clock.advance(5_000);
    for (let i = 0; i < 20; i++) {
      buyerOnA.publish({ destination: sendTo, body: JSON.stringify({ content: `a${i}`, listingId }) });
      sellerOnB.publish({ destination: sendTo, body: JSON.stringify({ content: `b${i}`, listingId }) });
    }
    const deadline = Date.now() + 5_000;
    while ((atA.messages.length < 40 || atB.messages.length < 40) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const ids = (c: typeof atA) => c.messages.map((m) => parseMessage(m.body).id).sort((x, y) => x - y);
    expect(atA.messages).toHaveLength(40);
    expect(ids(atA)).toEqual(ids(atB));
  });

  it('closes the sessions on process B when the password is changed on process A', async () => {
    const outcome = await connectStomp(urlB, { Authorization: `Bearer ${buyer.token}` });
    if (!outcome.ok) throw new Error('connect failed');
    const error = new Promise<string>(
      (resolve) => (outcome.client.onStompError = (f) => resolve(f.headers['message'] ?? '')),
    );
    const changed = await asStudent(a, buyer, {
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: buyer.password, newPassword: 'another-long-passphrase-12' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await error).toBe(MESSAGES.chatSessionRevoked);
    await outcome.client.deactivate();
  });
});
