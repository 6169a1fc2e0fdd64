import { DAY_MS, TRUST_MESSAGES, type DealWithReviews, type Profile, type Review } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { sql } from 'kysely';
import { insertDeal } from './testing.js';

const review = (t: TestApp, who: Student, dealId: number, payload: unknown) =>
  asStudent(t, who, { method: 'POST', url: `/deals/${dealId}/review`, payload: payload as object });

async function revealedReviews(t: TestApp, viewer: Student, subject: Student): Promise<Review[]> {
  const res = await asStudent(t, viewer, { method: 'GET', url: `/users/${subject.id}/reviews` });
  expect(res.statusCode).toBe(200);
  return res.json() as Review[];
}

async function dealsOf(t: TestApp, who: Student, query = ''): Promise<DealWithReviews[]> {
  const res = await asStudent(t, who, { method: 'GET', url: `/deals${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as DealWithReviews[];
}

describe.each(dialects)('reviews (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let buyer: Student;
  let stranger: Student;
  let otherBuyer: Student;

  beforeAll(async () => {
    // Jobs run by hand (runDue) so the reveal timer is driven by the test clock only.
    t = await createTestApp({ dialect, jobWorker: false });
    seller = await createStudent(t, { firstName: 'Maya' });
    buyer = await createStudent(t, { firstName: 'Jonah' });
    stranger = await createStudent(t);
    otherBuyer = await createStudent(t);
  });
  afterAll(() => t.close());

  it('refuses everyone but the two parties, and anonymous callers', async () => {
    const dealId = await insertDeal(t, seller, buyer);
    const otherDeal = await insertDeal(t, seller, otherBuyer);
    const body = { stars: 5 };

    const anonymous = await t.app.inject({ method: 'POST', url: `/deals/${dealId}/review`, payload: body });
    expect(anonymous.statusCode).toBe(401);

    const byStranger = await review(t, stranger, dealId, body);
    expect(byStranger.statusCode).toBe(403);
    expect(byStranger.json()).toEqual({ message: TRUST_MESSAGES.notYourDeal, code: 'FORBIDDEN' });

    // A party of another deal with the same seller is still a stranger to this one.
    const byOtherParty = await review(t, otherBuyer, dealId, body);
    expect(byOtherParty.statusCode).toBe(403);
    expect((await review(t, buyer, otherDeal, body)).statusCode).toBe(403);

    const missing = await review(t, buyer, 999_999, body);
    expect(missing.statusCode).toBe(404);
    expect((await review(t, buyer, 0, body)).statusCode).toBe(400);
    expect((await review(t, buyer, 99_999_999_999, body)).statusCode).toBe(400);
    // Nothing was recorded by any refusal.
    expect((await dealsOf(t, buyer)).find((d) => d.id === dealId)?.myReview).toBeNull();
  });

  it('validates stars, text and tags with messages a person can act on', async () => {
    const dealId = await insertDeal(t, seller, buyer);
    const cases: Array<[unknown, string]> = [
      [{}, TRUST_MESSAGES.starsInvalid],
      [{ stars: 0 }, TRUST_MESSAGES.starsInvalid],
      [{ stars: 6 }, TRUST_MESSAGES.starsInvalid],
      [{ stars: 4.5 }, TRUST_MESSAGES.starsInvalid],
      [{ stars: 4, text: 'x'.repeat(501) }, TRUST_MESSAGES.reviewTextTooLong],
      [{ stars: 4, tags: ['PUNCTUAL'] }, TRUST_MESSAGES.tagsInvalid],
      [{ stars: 4, tags: 'FRIENDLY' }, TRUST_MESSAGES.tagsInvalid],
      [{ stars: 4, email: 'x@msu.edu' }, TRUST_MESSAGES.reviewUnknownField],
    ];
    for (const [payload, message] of cases) {
      const res = await review(t, buyer, dealId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const ok = await review(t, buyer, dealId, {
      stars: 4,
      text: '  On time and friendly.  ',
      tags: ['FRIENDLY', 'ON_TIME', 'FRIENDLY'],
    });
    expect(ok.statusCode).toBe(201);
    const item = ok.json() as DealWithReviews;
    expect(item.myReview).toMatchObject({
      stars: 4,
      text: 'On time and friendly.',
      tags: ['ON_TIME', 'FRIENDLY'],
      subjectId: seller.id,
      author: { id: buyer.id, firstName: 'Jonah' },
      revealedAt: null,
    });
    expect(item.canReview).toBe(false);
  });

  it('accepts one review per party: the second is refused and changes nothing', async () => {
    const dealId = await insertDeal(t, seller, buyer);
    expect((await review(t, seller, dealId, { stars: 5 })).statusCode).toBe(201);
    const again = await review(t, seller, dealId, { stars: 1, text: 'changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: TRUST_MESSAGES.alreadyReviewed, code: 'CONFLICT' });
    const mine = (await dealsOf(t, seller)).find((d) => d.id === dealId);
    expect(mine?.myReview?.stars).toBe(5);
  });

  it('keeps reviews blind until both are in, then shows both at once', async () => {
    const dealId = await insertDeal(t, seller, buyer, { listingName: 'Blind lamp' });
    expect((await review(t, buyer, dealId, { stars: 3, text: 'Late but fine' })).statusCode).toBe(201);

    // Nobody sees the buyer's words yet: not the seller, not a stranger, not the deal list.
    const hidden = (await revealedReviews(t, stranger, seller)).filter((r) => r.dealId === dealId);
    expect(hidden).toEqual([]);
    const sellersView = (await dealsOf(t, seller)).find((d) => d.id === dealId);
    expect(sellersView).toMatchObject({
      canReview: true,
      theirReview: null,
      myReview: null,
      revealed: false,
    });

    const second = await review(t, seller, dealId, { stars: 5, tags: ['AS_DESCRIBED'] });
    expect(second.statusCode).toBe(201);
    expect((second.json() as DealWithReviews).theirReview).toMatchObject({ stars: 3, text: 'Late but fine' });

    const aboutSeller = (await revealedReviews(t, stranger, seller)).filter((r) => r.dealId === dealId);
    expect(aboutSeller).toHaveLength(1);
    expect(aboutSeller[0]).toMatchObject({ stars: 3, listingName: 'Blind lamp', author: { id: buyer.id } });
    expect(aboutSeller[0]?.revealedAt).not.toBeNull();
    const aboutBuyer = (await revealedReviews(t, stranger, buyer)).filter((r) => r.dealId === dealId);
    expect(aboutBuyer.map((r) => r.stars)).toEqual([5]);
    const buyersView = (await dealsOf(t, buyer)).find((d) => d.id === dealId);
    expect(buyersView).toMatchObject({ revealed: true, theirReview: { stars: 5 } });
  });

  it('holds under concurrent requests: one review per party, revealed once both are in', async () => {
    const dealId = await insertDeal(t, seller, buyer);
    const twice = await Promise.all([
      review(t, buyer, dealId, { stars: 4 }),
      review(t, buyer, dealId, { stars: 2 }),
    ]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const dealId2 = await insertDeal(t, seller, buyer);
    const both = await Promise.all([
      review(t, buyer, dealId2, { stars: 4 }),
      review(t, seller, dealId2, { stars: 5 }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    const shown = (await revealedReviews(t, stranger, seller)).filter((r) => r.dealId === dealId2);
    expect(shown.map((r) => r.stars)).toEqual([4]);
  });

  it('reveals a lone review when the 14 days pass (durable job), and closes the window', async () => {
    // A deal made almost 14 days ago (moving the clock 14 days would expire every token).
    const dealId = await insertDeal(t, seller, buyer, {
      listingName: 'Timer lamp',
      completedAt: t.clock.now() - 14 * DAY_MS + 60_000,
    });
    expect((await review(t, seller, dealId, { stars: 2 })).statusCode).toBe(201);
    const visible = async () =>
      (await revealedReviews(t, stranger, buyer)).filter((r) => r.dealId === dealId).length;

    await t.app.ctx.jobs.runDue();
    expect(await visible()).toBe(0);
    // Still inside the window: the buyer may review.
    expect((await dealsOf(t, buyer)).find((d) => d.id === dealId)?.canReview).toBe(true);

    t.clock.advance(2 * 60_000);
    await t.app.ctx.jobs.runDue();
    expect(await visible()).toBe(1);

    // After the window: no more reviews, and the deal list says so.
    const late = await review(t, buyer, dealId, { stars: 5 });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(TRUST_MESSAGES.reviewWindowOver);
    expect((await dealsOf(t, buyer)).find((d) => d.id === dealId)?.canReview).toBe(false);
  });

  it('counts one review per reviewer (the latest) in the rating', async () => {
    const a = await createStudent(t);
    const b = await createStudent(t);
    const c = await createStudent(t);
    // a and b trade twice; b rates a 1 star, then 5 stars. c rates a 3 stars.
    for (const stars of [1, 5]) {
      const deal = await insertDeal(t, a, b);
      expect((await review(t, b, deal, { stars })).statusCode).toBe(201);
      expect((await review(t, a, deal, { stars: 5 })).statusCode).toBe(201);
    }
    const deal = await insertDeal(t, c, a);
    expect((await review(t, c, deal, { stars: 3 })).statusCode).toBe(201);
    expect((await review(t, a, deal, { stars: 4 })).statusCode).toBe(201);

    const profile = (
      await asStudent(t, c, { method: 'GET', url: `/users/${a.id}/profile` })
    ).json() as Profile;
    expect(profile.ratingCount).toBe(2);
    expect(profile.ratingAverage).toBe(4); // (5 + 3) / 2, not (1 + 5 + 3) / 3
    expect(profile.dealsCount).toBe(3);
    // Every review stays listed; only the average de-duplicates.
    expect((await revealedReviews(t, c, a)).map((r) => r.stars)).toEqual([3, 5, 1]);
  });

  it('lists the caller’s deals newest first, paged, with the review state', async () => {
    const x = await createStudent(t, { firstName: 'Xavi' });
    const y = await createStudent(t, { firstName: 'Yara' });
    const first = await insertDeal(t, x, y, { listingName: 'Bike', priceCents: 4000 });
    const second = await insertDeal(t, y, x, { listingName: 'Kettle', priceCents: 1250 });
    expect((await review(t, x, first, { stars: 5 })).statusCode).toBe(201);

    const res = await asStudent(t, x, { method: 'GET', url: '/deals?limit=1' });
    expect(res.statusCode).toBe(200);
    const page1 = res.json() as DealWithReviews[];
    expect(page1.map((d) => d.id)).toEqual([second]);
    expect(page1[0]).toMatchObject({
      listingName: 'Kettle',
      price: 12.5,
      role: 'BUYER',
      counterpart: { id: y.id, firstName: 'Yara' },
      myReview: null,
      canReview: true,
    });
    const link = res.headers.link as string;
    expect(link).toMatch(/rel="next"/);
    const next = link.slice(link.indexOf('<') + 1, link.indexOf('>'));
    const page2 = (await asStudent(t, x, { method: 'GET', url: next })).json() as DealWithReviews[];
    expect(page2.map((d) => d.id)).toEqual([first]);
    expect(page2[0]).toMatchObject({ role: 'SELLER', canReview: false, myReview: { stars: 5 } });

    // A stranger's list does not include them; anonymous is refused.
    expect((await dealsOf(t, stranger)).map((d) => d.id)).not.toContain(first);
    expect((await t.app.inject({ method: 'GET', url: '/deals' })).statusCode).toBe(401);
    expect((await asStudent(t, x, { method: 'GET', url: '/deals?limit=0' })).statusCode).toBe(400);
  });

  it('answers 404 for the reviews of an unknown student and 401 without a token', async () => {
    expect((await asStudent(t, buyer, { method: 'GET', url: '/users/999999/reviews' })).statusCode).toBe(404);
    expect((await asStudent(t, buyer, { method: 'GET', url: '/users/abc/reviews' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/users/${seller.id}/reviews` })).statusCode).toBe(401);
  });
});

/**
 * A failure between the second review and the reveal (here: the database refuses the "reviews
 * visible" notification, as a crash at that point would leave it) must not leave a committed
 * review blind: the reveal is part of the review's transaction, so the retry succeeds and reveals.
 */
describe.each(dialects)('the second review reveals in its own transaction (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());

  async function failReveals(on: boolean): Promise<void> {
    const db = t.app.ctx.db.kysely;
    if (dialect === 'postgres') {
      if (on) {
        await sql`create function cm_fail_reveal() returns trigger language plpgsql as $$
          begin raise exception 'simulated crash before the reveal'; end $$`.execute(db);
        await sql`create trigger cm_fail_reveal before insert on notifications for each row
          when (new.type = 'REVIEW_REVEALED') execute function cm_fail_reveal()`.execute(db);
      } else {
        await sql`drop trigger cm_fail_reveal on notifications`.execute(db);
        await sql`drop function cm_fail_reveal()`.execute(db);
      }
    } else if (on) {
      await sql`create trigger cm_fail_reveal before insert on notifications
        when new.type = 'REVIEW_REVEALED'
        begin select raise(abort, 'simulated crash before the reveal'); end`.execute(db);
    } else {
      await sql`drop trigger cm_fail_reveal`.execute(db);
    }
  }

  it('a failed reveal fails the review, and its retry is stored and reveals both', async () => {
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Jonah' });
    const dealId = await insertDeal(t, seller, buyer);
    expect((await review(t, seller, dealId, { stars: 5 })).statusCode).toBe(201);
    await failReveals(true);
    const failed = await review(t, buyer, dealId, { stars: 4, text: 'Fine' });
    await failReveals(false);
    expect(failed.statusCode).toBe(500);
    // Nothing of it was kept: the retry is a first review, not "already reviewed".
    const retry = await review(t, buyer, dealId, { stars: 4, text: 'Fine' });
    expect(retry.statusCode).toBe(201);
    expect((retry.json() as DealWithReviews).theirReview).toMatchObject({ stars: 5 });
    expect((await revealedReviews(t, seller, buyer)).map((r) => r.stars)).toEqual([5]);
    expect((await revealedReviews(t, buyer, seller)).map((r) => r.stars)).toEqual([4]);
  });
});
