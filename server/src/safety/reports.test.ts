/**
 * Reports (features.md §C): POST /reports checks what is reported and by whom, one open report per
 * reporter and target, and three reporters hide a listing from browse and search.
 */
import { SAFETY_MESSAGES, type Listing, type Report } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchEngines, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call, insertChatMessage, reportingCampus, visibleTo } from './testing.js';

describe.each(searchEngines)('POST /reports ($name)', ({ dialect, env }) => {
  let t: TestApp;
  let seller: Student;
  let r1: Student;
  let r2: Student;
  let r3: Student;
  let listing: Listing;

  beforeAll(async () => {
    ({ t, seller, r1, r2, r3, listing } = await reportingCampus(dialect, env));
  });
  afterAll(() => t.close());

  const report = (s: Student, body: Record<string, unknown>) => call(t, s, 'POST', '/reports', body);

  it('validates the body and refuses anonymous callers', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/reports', payload: {} })).statusCode).toBe(401);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ targetType: 'CAR', targetId: 1, reason: 'SCAM' }, SAFETY_MESSAGES.reportTargetInvalid],
      [{ targetType: 'LISTING', targetId: 'x', reason: 'SCAM' }, SAFETY_MESSAGES.reportTargetIdInvalid],
      [{ targetType: 'LISTING', targetId: 0, reason: 'SCAM' }, SAFETY_MESSAGES.reportTargetIdInvalid],
      [{ targetType: 'LISTING', targetId: 1, reason: 'BORED' }, SAFETY_MESSAGES.reportReasonInvalid],
      [
        { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM', details: 'x'.repeat(1001) },
        SAFETY_MESSAGES.reportDetailsTooLong,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await report(r1, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('only what the reporter can see: not own things, not unknown ids, not other people’s messages', async () => {
    expect(
      (await report(seller, { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM' })).statusCode,
    ).toBe(400);
    expect((await report(r1, { targetType: 'USER', targetId: r1.id, reason: 'SPAM' })).statusCode).toBe(400);
    expect((await report(r1, { targetType: 'LISTING', targetId: 999999, reason: 'SCAM' })).statusCode).toBe(
      404,
    );
    expect((await report(r1, { targetType: 'USER', targetId: 999999, reason: 'SCAM' })).statusCode).toBe(404);
    // A message between seller and r2 is not r1's to report.
    const msg = await insertChatMessage(t, seller, r2, listing.id, 'Pay by Zelle first');
    expect((await report(r1, { targetType: 'MESSAGE', targetId: msg, reason: 'SCAM' })).statusCode).toBe(404);
    expect((await report(seller, { targetType: 'MESSAGE', targetId: msg, reason: 'SCAM' })).statusCode).toBe(
      400,
    );
    const ok = await report(r2, {
      targetType: 'MESSAGE',
      targetId: msg,
      reason: 'SCAM',
      details: 'asked for Zelle',
    });
    expect(ok.statusCode).toBe(201);
    // A student the reporter blocked: their listings are out of sight, so not reportable.
    const hidden = await createListing(t, r3.id, 'Hidden from r1');
    await call(t, r1, 'PUT', `/users/${r3.id}/block`);
    expect((await report(r1, { targetType: 'LISTING', targetId: hidden, reason: 'SCAM' })).statusCode).toBe(
      404,
    );
    await call(t, r1, 'DELETE', `/users/${r3.id}/block`);
  });

  it('one open report per reporter and target (409), and three reporters hide a listing from browse and search', async () => {
    const first = await report(r1, {
      targetType: 'LISTING',
      targetId: listing.id,
      reason: 'SCAM',
      details: 'price too low',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json() as Report).toMatchObject({
      targetType: 'LISTING',
      targetId: listing.id,
      status: 'OPEN',
      details: 'price too low',
    });
    const again = await report(r1, { targetType: 'LISTING', targetId: listing.id, reason: 'SPAM' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SAFETY_MESSAGES.reportDuplicate);
    expect(
      (await report(r2, { targetType: 'LISTING', targetId: listing.id, reason: 'MISLEADING' })).statusCode,
    ).toBe(201);
    expect(await visibleTo(t, r3, listing.id)).toEqual({
      browse: true,
      search: true,
      filters: true,
      detail: 200,
    });
    expect(
      (await report(r3, { targetType: 'LISTING', targetId: listing.id, reason: 'SCAM' })).statusCode,
    ).toBe(201);
    // Hidden from browse and search for everyone, the seller included; the detail still opens.
    for (const s of [r1, r3, seller]) {
      expect(await visibleTo(t, s, listing.id)).toEqual({
        browse: false,
        search: false,
        filters: false,
        detail: 200,
      });
    }
    // The seller still has it among their own.
    const mine = (await call(t, seller, 'GET', '/listings/self')).json() as Listing[];
    expect(mine.map((l) => l.id)).toContain(listing.id);
  });
});
