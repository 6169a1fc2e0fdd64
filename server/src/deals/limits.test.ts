import { DEALS_MESSAGES, dailyConversationsMessage } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { campusMorning } from '../notifications/testing.js';
import { call, cast, offer } from './testing.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(dialects)('offer limits (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: { DAILY_CONVERSATIONS_MAX: '2' } });
    t.clock.nowMs = campusMorning(Date.now());
  });
  afterAll(() => t.close());

  const post = (who: Parameters<typeof call>[1], listingId: number, amount: number) =>
    call(t, who, 'POST', `/listings/${listingId}/offers`, { amount });

  it('throttles offers per buyer and listing: 3 a minute and 20 a day, then a 429 that says so', async () => {
    const c = await cast(t);
    for (const amount of [10, 11, 12])
      expect((await post(c.buyer, c.listingId, amount)).statusCode).toBe(201);
    const fast = await post(c.buyer, c.listingId, 13);
    expect([fast.statusCode, fast.json()]).toEqual([
      429,
      { message: DEALS_MESSAGES.offerTooFast, code: 'RATE_LIMITED' },
    ]);
    expect(Number(fast.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(fast.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another buyer of the same listing has their own budget; so does the seller's counter.
    expect((await post(c.third, c.listingId, 9)).statusCode).toBe(201);

    // A minute later three more, and so on until the day's 20.
    let made = 3;
    while (made < 20) {
      t.clock.advance(MINUTE + 1);
      for (let i = 0; i < 3 && made < 20; i += 1, made += 1) {
        expect((await post(c.buyer, c.listingId, 20 + made)).statusCode, `offer ${made + 1}`).toBe(201);
      }
    }
    t.clock.advance(MINUTE + 1);
    const daily = await post(c.buyer, c.listingId, 50);
    expect([daily.statusCode, daily.json().message]).toEqual([429, DEALS_MESSAGES.offerDailyLimit]);
    t.clock.advance(DAY);
    expect((await post(c.buyer, c.listingId, 51)).statusCode).toBe(201);
  });

  it('a burst of 40 offers reaches the seller as one e-mail', async () => {
    const c = await cast(t);
    const before = t.mail.count(c.seller.email);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(c.buyer, c.listingId, 10 + i)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((s) => s === 201)).toHaveLength(3);
    expect(codes.filter((s) => s === 429)).toHaveLength(37);
    // Every job that is due now and after the coalescing window, and the e-mail's own job.
    await t.app.ctx.jobs.runDue();
    t.clock.advance(3 * MINUTE);
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const mine = t.mail.messages.filter((m) => m.to.includes(c.seller.email.toLowerCase())).slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.subject).toMatch(/^New offer on “.+”$/);
    expect(mine[0]!.text).toContain('That is the latest of 3 new offers in this chat.');
    // Nothing more follows later; the centre still lists each offer.
    t.clock.advance(30 * MINUTE);
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    expect(t.mail.count(c.seller.email)).toBe(before + 1);
    const centre = (await call(t, c.seller, 'GET', '/notifications')).json() as {
      notifications: Array<{ type: string }>;
    };
    expect(centre.notifications.filter((n) => n.type === 'OFFER_RECEIVED')).toHaveLength(3);
  });

  it('a single offer is still e-mailed on its own, and a later one after the gap', async () => {
    const c = await cast(t);
    const before = t.mail.count(c.seller.email);
    await offer(t, c.buyer, c.listingId, 10);
    // The worker runs due jobs at once (jobWorker is off here: the test runs them).
    await t.app.ctx.jobs.runDue();
    t.clock.advance(3 * MINUTE);
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    const first = await t.mail.waitFor(c.seller.email, before);
    expect(first.text).toContain('Ben offered $10');
    expect(first.text).not.toContain('latest of');
    t.clock.advance(20 * MINUTE);
    await offer(t, c.buyer, c.listingId, 11);
    await t.app.ctx.jobs.runDue();
    t.clock.advance(3 * MINUTE);
    await t.app.ctx.jobs.runDue();
    await t.app.ctx.jobs.runDue();
    expect((await t.mail.waitFor(c.seller.email, before + 1)).text).toContain('Ben offered $11');
  });

  it('an offer that opens a conversation takes a slot of the daily cap of new conversations', async () => {
    const buyer = await createStudent(t, { firstName: 'Ben' });
    const listings: number[] = [];
    for (let i = 0; i < 3; i += 1) listings.push(await createListing(t, (await createStudent(t)).id));
    expect((await post(buyer, listings[0]!, 10)).statusCode).toBe(201);
    expect((await post(buyer, listings[1]!, 10)).statusCode).toBe(201);
    const refused = await post(buyer, listings[2]!, 10);
    expect([refused.statusCode, refused.json()]).toEqual([
      429,
      { message: dailyConversationsMessage(2), code: 'RATE_LIMITED' },
    ]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing of the refused offer was kept: two conversations, and no offer on the third listing.
    expect(((await call(t, buyer, 'GET', '/api/chats')).json() as unknown[]).length).toBe(2);
    expect((await call(t, buyer, 'GET', `/listings/${listings[2]}/offers`)).json()).toEqual([]);
    // An offer in a conversation already open takes no new slot.
    expect((await post(buyer, listings[0]!, 12)).statusCode).toBe(201);
  });
});
