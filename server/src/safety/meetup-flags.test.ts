import type { ChatMessage, Meetup, Offer } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';
import { createListing, listen, parseMessage } from '../chat/testing.js';
import { bearer, call } from './testing.js';

const HOUR = 3_600_000;

/** A typed meet-up place reaches the other student like a message: the anti-scam guard reads it. */
describe.each(dialects)('anti-scam flags on meet-up places (%s)', (dialect) => {
  let t: TestApp;
  let url: string;
  let buyer: Student;
  let seller: Student;
  const open: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    url = await listen(t.app);
    buyer = await createStudent(t, { firstName: 'Ben' });
    seller = await createStudent(t, { firstName: 'Maya' });
  });
  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await t.close();
  });

  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();
  const history = async (who: Student, roomId: string) =>
    (await call(t, who, 'GET', `/api/chats/${roomId}`)).json() as ChatMessage[];

  it('a deposit-first place is delivered with flags to the other student only, live and in history', async () => {
    const listingId = await createListing(t, seller.id, 'Mini fridge');
    const offer = (
      await call(t, buyer, 'POST', `/listings/${listingId}/offers`, { amount: 40 })
    ).json() as Offer;
    const room = offer.roomId;
    const buyerClient = await connectOrThrow(url, bearer(buyer));
    const sellerClient = await connectOrThrow(url, bearer(seller));
    open.push(buyerClient, sellerClient);
    const atBuyer = collect(buyerClient, `/user/queue/chat/${room}`, { receipt: 'b' });
    const atSeller = collect(sellerClient, `/user/queue/chat/${room}`, { receipt: 's' });
    await Promise.all([receiptFor(buyerClient, 'b'), receiptFor(sellerClient, 's')]);

    const place = 'Send a $50 deposit on venmo first';
    const res = await call(t, seller, 'POST', '/meetups', {
      listingId,
      roomId: room,
      place,
      startsAt: at(2 * HOUR),
    });
    expect(res.statusCode, res.body).toBe(201);
    const meetup = res.json() as Meetup;
    const [theirs, own] = await Promise.all([atBuyer.next(), atSeller.next()]);
    expect(parseMessage(theirs.body)).toMatchObject({
      kind: 'meetup',
      meetup: { id: meetup.id },
      flags: ['PAY_FIRST'],
    });
    expect(parseMessage(own.body)).not.toHaveProperty('flags');

    const card = (messages: ChatMessage[]) => messages.find((m) => m.meetup?.id === meetup.id);
    expect(card(await history(buyer, room))?.flags).toEqual(['PAY_FIRST']);
    expect(card(await history(seller, room))).not.toHaveProperty('flags');

    // Ordinary places and the campus's own spots carry no flags. (The first meet-up is cancelled
    // so a new one may be proposed.)
    await call(t, buyer, 'POST', `/meetups/${meetup.id}/cancel`);
    const plain = (
      await call(t, seller, 'POST', '/meetups', {
        listingId,
        roomId: room,
        place: 'Wells Hall lobby, by the vending machines',
        startsAt: at(3 * HOUR),
      })
    ).json() as Meetup;
    expect((await history(buyer, room)).find((m) => m.meetup?.id === plain.id)).not.toHaveProperty('flags');
    await call(t, buyer, 'POST', `/meetups/${plain.id}/cancel`);
    const spot = (
      await call(t, seller, 'POST', '/meetups', {
        listingId,
        roomId: room,
        spotId: 'library-entrance',
        startsAt: at(4 * HOUR),
      })
    ).json() as Meetup;
    expect((await history(buyer, room)).find((m) => m.meetup?.id === spot.id)).not.toHaveProperty('flags');
  });
});
