/**
 * Chat with Redis hung or down: two app processes share one PostgreSQL database and one Redis,
 * each reaching Redis through its own TcpProxy the test freezes (a hung Redis) or takes down.
 * A SEND is stored, acknowledged and delivered on its own process without waiting for Redis; the
 * other process gets it when Redis answers again, or is told to resync when it may have missed it.
 */
import { STOMP_PATHS, roomIdFor } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, redisUrl, type Student, type TestApp } from '../../test/helper.js';
import { TcpProxy } from '../../test/tcp-proxy.js';
import { collect, connectOrThrow, receiptFor } from './stomp/testing.js';
import { createListing, listen, pairedApps, parseMessage } from './testing.js';

const enabled = process.env.TEST_DATABASE_URL !== undefined && redisUrl !== undefined;

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!enabled)('chat with Redis hung or down (two processes, PostgreSQL)', () => {
  let pair: Awaited<ReturnType<typeof pairedApps>>;
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  const proxies: [TcpProxy, TcpProxy] = [
    TcpProxy.forUrl(redisUrl ?? 'redis://x'),
    TcpProxy.forUrl(redisUrl ?? 'redis://x'),
  ];
  let buyer: Student;
  let seller: Student;
  let listingId: number;
  let room: string;
  let sendTo: string;
  const open: Client[] = [];

  const redisOf = (t: TestApp) => t.app.ctx.redis as Redis;
  const body = (content: string) => JSON.stringify({ content, listingId });

  async function connect(url: string, s: Student): Promise<Client> {
    const c = await connectOrThrow(url, { Authorization: `Bearer ${s.token}` });
    open.push(c);
    return c;
  }

  beforeAll(async () => {
    const [hostA, hostB] = await Promise.all(proxies.map(async (p) => (await p.start()).address));
    pair = await pairedApps([`redis://${hostA}`, `redis://${hostB}`]);
    [a, b] = pair.apps;
    urlA = await listen(a.app);
    urlB = await listen(b.app);
    buyer = await createStudent(a, { firstName: 'Ann' });
    seller = await createStudent(b, { firstName: 'Ben' });
    listingId = await createListing(a, seller.id, 'Bike');
    room = roomIdFor(buyer.id, seller.id);
    sendTo = `/app/chat.send/${buyer.id}/${seller.id}`;
  });

  afterEach(async () => {
    for (const c of open.splice(0)) await c.deactivate();
    for (const p of proxies) p.thaw();
  });

  afterAll(async () => {
    await pair?.close();
    for (const p of proxies) await p.close();
  });

  it('answers RECEIPTs at once while Redis hangs, and the other process gets the messages when it answers', async () => {
    const buyerOnA = await connect(urlA, buyer);
    const sellerOnB = await connect(urlB, seller);
    const own = collect(buyerOnA, `/user/queue/chat/${room}`, { receipt: 'sa' });
    const errors = collect(buyerOnA, STOMP_PATHS.errors);
    const peer = collect(sellerOnB, `/user/queue/chat/${room}`, { receipt: 'sb' });
    await Promise.all([receiptFor(buyerOnA, 'sa'), receiptFor(sellerOnB, 'sb')]);

    proxies[0].freeze();
    // One message a second for 8 seconds: each stored, acknowledged and delivered on A promptly.
    for (let i = 0; i < 8; i++) {
      a.clock.advance(1_000);
      buyerOnA.publish({ destination: sendTo, body: body(`hung ${i}`), headers: { receipt: `h${i}` } });
      await receiptFor(buyerOnA, `h${i}`, 1_000);
      expect(parseMessage((await own.next(1_000)).body).content).toBe(`hung ${i}`);
    }
    expect(errors.messages).toHaveLength(0);
    expect(peer.messages).toHaveLength(0);

    proxies[0].thaw();
    for (let i = 0; i < 8; i++)
      expect(parseMessage((await peer.next(10_000)).body).content).toBe(`hung ${i}`);
  });

  it('delivers what was stored while Redis was down once it is back', async () => {
    const buyerOnA = await connect(urlA, buyer);
    const sellerOnB = await connect(urlB, seller);
    const peer = collect(sellerOnB, `/user/queue/chat/${room}`, { receipt: 'sb' });
    await receiptFor(sellerOnB, 'sb');

    await proxies[0].down();
    await until(() => redisOf(a).status !== 'ready');
    a.clock.advance(1_000);
    buyerOnA.publish({ destination: sendTo, body: body('sent while down'), headers: { receipt: 'd1' } });
    await receiptFor(buyerOnA, 'd1', 1_000);
    // Long enough for ioredis to give up on a command it held (maxRetriesPerRequest).
    await new Promise((r) => setTimeout(r, 1_500));
    expect(peer.messages).toHaveLength(0);

    await proxies[0].up();
    expect(parseMessage((await peer.next(15_000)).body).content).toBe('sent while down');
  });

  it('tells the sessions of a process whose subscription was down to resync', async () => {
    const buyerOnA = await connect(urlA, buyer);
    const sellerOnB = await connect(urlB, seller);
    const resync = collect(sellerOnB, STOMP_PATHS.resync, { receipt: 'sr' });
    await receiptFor(sellerOnB, 'sr');

    await proxies[1].down();
    await until(() => redisOf(b).status !== 'ready');
    a.clock.advance(1_000);
    buyerOnA.publish({ destination: sendTo, body: body('missed by B'), headers: { receipt: 'm1' } });
    await receiptFor(buyerOnA, 'm1', 1_000);
    expect(resync.messages).toHaveLength(0);

    await proxies[1].up();
    expect(JSON.parse((await resync.next(15_000)).body)).toEqual({ type: 'resync' });
  });
});
