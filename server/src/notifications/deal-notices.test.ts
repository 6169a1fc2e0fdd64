import { roomIdFor, type AppNotification, type Meetup, type NotificationPage } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call, cast, offer, type Cast } from '../deals/testing.js';
import { campusMorning } from './testing.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(dialects)('deal and review notifications (%s)', (dialect) => {
  let t: TestApp;
  let c: Cast;
  let spotId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    c = await cast(t);
    const campus = (await call(t, null, 'GET', '/public/campus')).json() as {
      meetupSpots: Array<{ id: string }>;
    };
    spotId = campus.meetupSpots[0]!.id;
  });
  afterAll(() => t.close());

  const centre = async (s: Student) =>
    ((await call(t, s, 'GET', '/notifications')).json() as NotificationPage).notifications;
  /** What `s` was told since the last look, oldest first. */
  const seen = new Map<number, number>();
  async function news(s: Student): Promise<AppNotification[]> {
    const all = await centre(s);
    const after = seen.get(s.id) ?? 0;
    if (all[0]) seen.set(s.id, all[0].id);
    return all.filter((n) => n.id > after).reverse();
  }
  const types = (list: AppNotification[]) => list.map((n) => n.type);
  const ok = async (res: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return JSON.parse(r.body) as unknown;
  };

  it('tells the other student of each step, reminds both before the meet-up, and follows the deal to its reviews', async () => {
    const { seller, buyer, third, listingId } = c;
    const room = `/chat/${roomIdFor(seller.id, buyer.id)}`;
    await Promise.all([news(seller), news(buyer), news(third)]);

    // Offer → the seller hears it, the buyer (who made it) does not.
    const first = await offer(t, buyer, listingId, 12);
    let sellerNews = await news(seller);
    expect(sellerNews).toHaveLength(1);
    expect(sellerNews[0]).toMatchObject({
      type: 'OFFER_RECEIVED',
      title: expect.stringMatching(/^New offer on “.+”$/),
      body: 'Ben offered $12',
      link: room,
      readAt: null,
    });
    expect(await news(buyer)).toEqual([]);

    // Counter → the buyer hears of the new offer.
    const counter = (await ok(
      call(t, seller, 'POST', `/offers/${first.id}/counter`, { amount: 14 }),
      201,
    )) as {
      id: number;
    };
    expect(types(await news(buyer))).toEqual(['OFFER_RECEIVED']);
    expect(await news(seller)).toEqual([]);

    // Accept → the seller hears the listing is reserved.
    await ok(call(t, buyer, 'POST', `/offers/${counter.id}/accept`));
    sellerNews = await news(seller);
    expect(sellerNews.map((n) => [n.type, n.title])).toEqual([
      ['OFFER_ANSWERED', expect.stringMatching(/^Offer accepted: “.+” is reserved$/)],
    ]);

    // Meet-up proposed by the buyer, confirmed by the seller.
    const startsAt = t.clock.now() + 2 * DAY;
    const meetup = (await ok(
      call(t, buyer, 'POST', '/meetups', { listingId, spotId, startsAt: new Date(startsAt).toISOString() }),
      201,
    )) as Meetup;
    expect(types(await news(seller))).toEqual(['MEETUP_PROPOSED']);
    await ok(call(t, seller, 'POST', `/meetups/${meetup.id}/accept`));
    const confirmed = await news(buyer);
    expect(confirmed.map((n) => n.type)).toEqual(['MEETUP_ANSWERED']);
    expect(confirmed[0]!.title).toMatch(/^Meet-up confirmed for “.+”$/);

    // Nothing is due yet; one hour before the meet-up both are reminded, once.
    await t.app.ctx.jobs.runDue();
    expect(await news(buyer)).toEqual([]);
    t.clock.nowMs = startsAt - HOUR;
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const [buyerReminder] = await news(buyer);
    const [sellerReminder] = await news(seller);
    expect(buyerReminder).toMatchObject({ type: 'MEETUP_REMINDER', link: room });
    expect(buyerReminder!.body).toMatch(/at \d{1,2}:\d{2}\s?[AP]M\. Have your hand-off code ready\.$/);
    expect(sellerReminder!.body).toMatch(/Ask for the hand-off code when you meet\.$/);
    expect(await news(buyer)).toEqual([]);

    // The right code: both hear of the deal, each in their own words.
    const { code } = (await ok(call(t, buyer, 'GET', `/listings/${listingId}/handoff`))) as { code: string };
    const { deal } = (await ok(call(t, seller, 'POST', `/listings/${listingId}/handoff`, { code }))) as {
      deal: { id: number };
    };
    expect((await news(seller)).map((n) => [n.type, n.title, n.link])).toEqual([
      ['DEAL_CONFIRMED', expect.stringMatching(/^Sold: “.+” for \$14$/), '/my-deals'],
    ]);
    const bought = await news(buyer);
    expect(bought.map((n) => [n.type, n.title])).toEqual([
      ['DEAL_CONFIRMED', expect.stringMatching(/^You bought “.+” for \$14$/)],
    ]);
    expect(bought[0]!.body).toMatch(/^Rate Maya: /);

    // The seller rates at once; a day later only the buyer is asked.
    await ok(
      call(t, seller, 'POST', `/deals/${deal.id}/review`, { stars: 5, text: 'On time', tags: [] }),
      201,
    );
    t.clock.advance(DAY);
    await t.app.ctx.jobs.runDue();
    expect(await news(seller)).toEqual([]);
    const asked = await news(buyer);
    expect(asked.map((n) => [n.type, n.title, n.link])).toEqual([
      ['REVIEW_REQUEST', 'How did it go with Maya?', '/my-deals'],
    ]);
    expect(asked[0]!.body).toMatch(/13 days left to rate\.$/);

    // The buyer rates: both reviews become visible and each student hears of the one about them.
    await ok(call(t, buyer, 'POST', `/deals/${deal.id}/review`, { stars: 4, text: '', tags: [] }), 201);
    expect((await news(seller)).map((n) => [n.type, n.link])).toEqual([
      ['REVIEW_REVEALED', `/u/${seller.id}`],
    ]);
    expect((await news(buyer)).map((n) => [n.type, n.link])).toEqual([['REVIEW_REVEALED', `/u/${buyer.id}`]]);

    // A student outside the deal was told nothing at any step.
    expect(await news(third)).toEqual([]);
  });

  it('a cancelled meet-up is not recalled, and an expired offer tells both', async () => {
    const seller = c.seller;
    const buyer = c.third;
    const listingId = await createListing(t, seller.id);
    await Promise.all([news(seller), news(buyer)]);
    const o = await offer(t, buyer, listingId, 9);
    await ok(call(t, seller, 'POST', `/offers/${o.id}/accept`));
    const startsAt = t.clock.now() + DAY;
    const meetup = (await ok(
      call(t, seller, 'POST', '/meetups', { listingId, spotId, startsAt: new Date(startsAt).toISOString() }),
      201,
    )) as Meetup;
    await ok(call(t, buyer, 'POST', `/meetups/${meetup.id}/accept`));
    await ok(call(t, buyer, 'POST', `/meetups/${meetup.id}/cancel`));
    expect(types(await news(seller))).toEqual(['OFFER_RECEIVED', 'MEETUP_ANSWERED', 'MEETUP_ANSWERED']);
    t.clock.nowMs = startsAt - HOUR + 1;
    await t.app.ctx.jobs.runDue();
    expect(types(await news(buyer))).toEqual(['OFFER_ANSWERED', 'MEETUP_PROPOSED']);
    expect(types(await news(seller))).toEqual([]);

    // A second buyer's pending offer expires after 48 h: the system acted, so both hear it.
    await ok(call(t, seller, 'POST', `/listings/${listingId}/release`));
    const late = await offer(t, c.buyer, listingId, 8);
    await Promise.all([news(seller), news(c.buyer)]);
    t.clock.nowMs = Date.parse(late.expiresAt) + 1;
    await t.app.ctx.jobs.runDue();
    expect((await news(c.buyer)).map((n) => n.title)).toEqual([
      expect.stringMatching(/^Offer expired: “.+”$/),
    ]);
    expect(types(await news(seller))).toEqual(['OFFER_ANSWERED']);
  });
});
