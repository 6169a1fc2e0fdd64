/**
 * Fairness of claims (features.md §H): at most 3 open claims, at most 5 free items won in 7 days
 * (claim refused, the giver's choice refused, the draw and the line skip), and a draw that is
 * uniform whatever the order the claims came in (no first-come advantage).
 */
import { CLAIMS_MESSAGES, type ClaimDraw } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { cryptoRandom, shuffled } from './draw.js';
import { call, claim, claimsOf, freeListing, HOUR, relogin, scripted } from './testing.js';

describe('the draw', () => {
  it('gives every order of the claims exactly once over all the random source’s answers', () => {
    // Fisher–Yates over n items asks for j in [0, i] for i = n-1 … 1: n! answer sequences.
    const n = 4;
    const seen = new Map<string, number>();
    const firsts = new Map<string, number>();
    const sequences: number[][] = [[]];
    for (let i = n - 1; i > 0; i--) {
      const next: number[][] = [];
      for (const s of sequences) for (let j = 0; j <= i; j++) next.push([...s, j]);
      sequences.splice(0, sequences.length, ...next);
    }
    for (const s of sequences) {
      const source = scripted(s).source;
      const order = shuffled(['a', 'b', 'c', 'd'], source).join('');
      seen.set(order, (seen.get(order) ?? 0) + 1);
      firsts.set(order[0]!, (firsts.get(order[0]!) ?? 0) + 1);
    }
    expect(seen.size).toBe(24);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    // Whoever claimed first (a) leads exactly as often as whoever claimed last (d).
    expect([...firsts.values()]).toEqual([6, 6, 6, 6]);
  });

  it('draws each claim first about equally often with the CSPRNG', () => {
    const counts = [0, 0, 0];
    const runs = 30_000;
    for (let r = 0; r < runs; r++) counts[shuffled([0, 1, 2], cryptoRandom)[0]!]! += 1;
    // 1/3 each; a 5-sigma band (σ ≈ 82) so the test is not flaky.
    for (const c of counts) expect(Math.abs(c - runs / 3)).toBeLessThan(410);
  });

  it('refuses a random source that answers outside its range', () => {
    expect(() => shuffled([1, 2], () => 2)).toThrow(/random source/);
  });
});

describe.each(dialects)('claim limits (%s)', (dialect) => {
  let t: TestApp;
  let random = scripted([]);
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, claims: { random: (n) => random.source(n) } });
  });
  afterAll(() => t.close());

  const refusal = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    return [res.statusCode, (res.json() as { message?: string }).message];
  };

  it('holds a student to 3 open claims on undecided giveaways', async () => {
    const giver = await createStudent(t, { firstName: 'Gail' });
    const student = await createStudent(t, { firstName: 'Olly' });
    const items = [];
    for (let i = 0; i < 4; i++) items.push(await freeListing(t, giver, 1, `Item ${i}`));
    const first = await claim(t, student, items[0]!.id);
    await claim(t, student, items[1]!.id);
    await claim(t, student, items[2]!.id);
    expect(await refusal(t, student, 'POST', `/listings/${items[3]!.id}/claims`, {})).toEqual([
      409,
      CLAIMS_MESSAGES.tooManyOpen,
    ]);
    // Withdrawing one frees a place.
    expect((await call(t, student, 'DELETE', `/listings/${items[0]!.id}/claims/mine`)).statusCode).toBe(200);
    const fourth = await claim(t, student, items[3]!.id);
    expect(fourth.status).toBe('OPEN');
    expect(first.id).not.toBe(fourth.id);
  });

  describe('wins', () => {
    let giver: Student;
    let winner: Student;
    let other: Student;
    let held: { id: number };
    let heldIds: number[];

    beforeAll(async () => {
      giver = await createStudent(t, { firstName: 'Gwen' });
      winner = await createStudent(t, { firstName: 'Will' });
      other = await createStudent(t, { firstName: 'Opal' });
      // A giveaway the winner joins before their five wins, decided after them.
      held = await freeListing(t, giver, 72, 'Held lamp');
      heldIds = [(await claim(t, winner, held.id)).id, (await claim(t, other, held.id)).id];
      for (let i = 0; i < 5; i++) {
        const item = await freeListing(t, giver, 1, `Win ${i}`);
        const c = await claim(t, winner, item.id);
        t.clock.advance(HOUR);
        expect((await call(t, giver, 'POST', `/claims/${c.id}/choose`)).statusCode).toBe(200);
      }
    });

    it('refuses a sixth claim within 7 days', async () => {
      const item = await freeListing(t, giver, 1, 'Sixth');
      expect(await refusal(t, winner, 'POST', `/listings/${item.id}/claims`, {})).toEqual([
        409,
        CLAIMS_MESSAGES.winLimit,
      ]);
    });

    it('refuses the giver’s choice of a student over the limit', async () => {
      t.clock.advance(72 * HOUR);
      expect(await refusal(t, giver, 'POST', `/claims/${heldIds[0]}/choose`)).toEqual([
        409,
        CLAIMS_MESSAGES.chosenOverLimit,
      ]);
    });

    it('skips a student over the limit in the draw, and records the skip', async () => {
      random = scripted([1]); // [winner, other] stays in order: the winner is drawn first
      const res = await call(t, giver, 'POST', `/listings/${held.id}/claims/draw`);
      const draw = res.json() as ClaimDraw;
      expect(draw).toMatchObject({
        orderClaimIds: heldIds,
        skippedClaimIds: [heldIds[0]],
        winnerClaimId: heldIds[1],
      });
      const all = await claimsOf(t, giver, held.id);
      expect(all.get(heldIds[0]!)!.status).toBe('LOST');
      expect(all.get(heldIds[1]!)!.status).toBe('CHOSEN');
    });

    it('lets the student claim again once the oldest win is 7 days old', async () => {
      // The wins were 1–5 h after the start and the clock is 77 h on: the first is over 7 days old
      // after 169 h (a win exactly 7 days old still counts).
      t.clock.advance(91 * HOUR);
      giver = await relogin(t, giver);
      winner = await relogin(t, winner);
      const early = await freeListing(t, giver, 1, 'Not yet');
      expect(await refusal(t, winner, 'POST', `/listings/${early.id}/claims`, {})).toEqual([
        409,
        CLAIMS_MESSAGES.winLimit,
      ]);
      t.clock.advance(2 * HOUR);
      const item = await freeListing(t, giver, 1, 'Next week');
      expect((await claim(t, winner, item.id)).status).toBe('OPEN');
    });
  });
});
