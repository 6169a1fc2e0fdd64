import { DEALS_MESSAGES, DEAL_EVENTS, type Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { call, cast, history, listingOf, offer } from './testing.js';

describe.each(dialects)('PUT /listings/sold with deals (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());

  const toggle = (who: Student | null, id: number) => {
    const options = { method: 'PUT' as const, url: `/listings/sold/${id}` };
    return who ? asStudent(t, who, options) : t.app.inject(options);
  };
  const dealsOf = async (who: Student) =>
    ((await call(t, who, 'GET', '/deals')).json() as Array<{ listingId: number }>).length;

  it('on a reserved listing ends the reservation properly: offer cancelled, code gone, both told', async () => {
    const c = await cast(t);
    const o = await offer(t, c.buyer, c.listingId, 12);
    expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(200);
    expect((await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`)).statusCode).toBe(200);

    // Only the seller may.
    expect((await toggle(c.buyer, c.listingId)).statusCode).toBe(403);
    expect((await toggle(c.third, c.listingId)).statusCode).toBe(403);
    expect((await toggle(null, c.listingId)).statusCode).toBe(401);
    expect((await listingOf(t, c.seller, c.listingId)).status).toBe('RESERVED');

    const res = await toggle(c.seller, c.listingId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SOLD', isSold: true });
    expect(await listingOf(t, c.buyer, c.listingId)).not.toHaveProperty('reservedFor');

    const mine = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
    expect(mine[0]).toMatchObject({ id: o.id, status: 'CANCELLED' });
    const code = await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`);
    expect([code.statusCode, code.json().message]).toEqual([403, DEALS_MESSAGES.handoffNotBuyer]);
    // The chat no longer says "reserved for you": both read the ending, with the offer's new state.
    for (const who of [c.buyer, c.seller]) {
      expect((await history(t, who, o.roomId)).at(-1)).toMatchObject({
        kind: 'system',
        content: DEAL_EVENTS.reservationSoldElsewhere('Maya'),
        offer: { id: o.id, status: 'CANCELLED' },
      });
    }
    // No deal, so nothing to review.
    expect(await dealsOf(c.buyer)).toBe(0);
    expect(await dealsOf(c.seller)).toBe(0);
  });

  it('after a hand-off the listing stays sold: no second deal for it', async () => {
    const c = await cast(t);
    const o = await offer(t, c.buyer, c.listingId, 12);
    await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
    const { code } = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`)).json() as {
      code: string;
    };
    expect((await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code })).statusCode).toBe(
      200,
    );
    const unsold = await toggle(c.seller, c.listingId);
    expect([unsold.statusCode, unsold.json()]).toEqual([
      409,
      { message: DEALS_MESSAGES.soldDealRecorded, code: 'CONFLICT' },
    ]);
    expect(await listingOf(t, c.seller, c.listingId)).toMatchObject({ status: 'SOLD', isSold: true });
    const late = await call(t, c.third, 'POST', `/listings/${c.listingId}/offers`, { amount: 20 });
    expect(late.statusCode).toBe(409);
    expect(await dealsOf(c.seller)).toBe(1);
    // The database holds the rule too: a second deal row for the listing is refused.
    await expect(
      t.app.ctx.db.kysely
        .insertInto('deals')
        .values({
          listing_id: c.listingId,
          listing_name: 'Desk lamp',
          seller_id: c.seller.id,
          buyer_id: c.third.id,
          price_cents: 2000,
          completed_at: t.clock.now(),
          offer_id: null,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it('still toggles a listing without a deal both ways', async () => {
    const c = await cast(t);
    expect((await toggle(c.seller, c.listingId)).json()).toMatchObject({ status: 'SOLD' });
    expect((await toggle(c.seller, c.listingId)).json()).toMatchObject({ status: 'AVAILABLE' });
    expect((await toggle(c.seller, 99_999)).statusCode).toBe(404);
  });
});
