import { SAFETY_MESSAGES, prohibitedMessage, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { parseProhibitedTerms } from '../config.js';
import { multipart, postListing, validFields } from '../listings/testing.js';
import { DEMO_LISTINGS } from '../seed/data.js';
import { findProhibited } from './terms.js';
import { DEFAULT_PROHIBITED_RULES } from '@campus/contract';
import { call } from './testing.js';

describe('prohibited terms', () => {
  it.each([
    ['Glock pistol, barely used', 'weapons', 'pistol'],
    ['Handle of vodka, unopened', 'alcohol', 'vodka'],
    ['JUUL with 4 pods', 'drugs and vapes', 'juul'],
    ['Selling weed edibles', 'drugs and vapes', 'weed'],
    ['Fake ID, scans perfectly', 'fake IDs', 'fake id'],
    [
      'CSE 232 final exam answers',
      'exam answers, essay writing and other academic dishonesty',
      'exam answers',
    ],
    [
      'I will write your essay for $50',
      'exam answers, essay writing and other academic dishonesty',
      'write your essay',
    ],
    ['10 meal swipes for Brody', 'meal swipes, parking permits and student IDs', 'meal swipes'],
    ['Commuter parking permit, lot 89', 'meal swipes, parking permits and student IDs', 'parking permit'],
    ['Leftover Adderall', 'prescription drugs and contact lenses', 'adderall'],
    ['Acuvue contact lenses -2.5', 'prescription drugs and contact lenses', 'contact lenses'],
  ])('refuses %j under "%s"', (text, rule, term) => {
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, text)).toEqual({ rule, term });
  });

  it.each([
    'Graphing calculator',
    'Shotglass-free mini fridge',
    'The Outsiders (paperback), begun but never finished',
    'Wine glasses, set of 4',
    'Kitchen knife set',
    'Student desk with lamp',
    'Essay collection by Joan Didion',
    'Contact paper for shelves',
  ])('lets %j through', (text) => {
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, text)).toBeNull();
  });

  it.each([
    ['zero-width space', 'Va\u200Bpe pen'],
    ['soft hyphen', 'Va\u00ADpe pen'],
    ['zero-width joiner', 'Vap\u200De pen'],
    ['word joiner', 'V\u2060ape pen'],
    ['Cyrillic а', 'V\u0430pe pen'],
    ['Cyrillic е and р', 'Va\u0440\u0435 pen'],
    ['Greek Α and Ε', 'V\u0391P\u0395 PEN'],
    ['full-width letters', '\uFF36\uFF41\uFF50\uFF45 pen'],
    ['everything at once', '\uFF36\u0430\u00AD\u0440\u200B\u0435 pen'],
  ])('sees through %s', (_how, text) => {
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, text)).toEqual({ rule: 'drugs and vapes', term: 'vape' });
  });

  it('folds without gluing words or breaking innocent text in other scripts', () => {
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, 'Ва\u200Bза для цветов (flower vase)')).toBeNull();
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, 'Crème brûlée torch')).toBeNull();
    expect(findProhibited(DEFAULT_PROHIBITED_RULES, 'Βιβλίο για φυσική')).toBeNull();
  });

  it('the demo data a fresh install shows obeys the rules it enforces', () => {
    const hits = DEMO_LISTINGS.map((l) => findProhibited(DEFAULT_PROHIBITED_RULES, l.name, l.description));
    expect(hits.filter((h) => h !== null)).toEqual([]);
  });

  it('PROHIBITED_TERMS replaces the defaults and must be well formed', () => {
    expect(parseProhibitedTerms('fireworks: firework, fireworks; pets: puppy')).toEqual([
      { rule: 'fireworks', terms: ['firework', 'fireworks'] },
      { rule: 'pets', terms: ['puppy'] },
    ]);
    expect(parseProhibitedTerms('no colon here')).toBeNull();
    expect(parseProhibitedTerms('rule:')).toBeNull();
  });
});

describe.each(dialects)('rules at the door (%s)', (dialect) => {
  let t: TestApp;
  let student: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { DAILY_LISTINGS_MAX: '20' } });
    student = await createStudent(t);
  });
  afterAll(() => t.close());

  const create = (s: Student, fields: Record<string, string>) =>
    asStudent(t, s, { method: 'POST', url: '/listing', ...multipart(fields) });

  it('refuses a listing on create and on edit, naming the rule; nothing is stored', async () => {
    const res = await create(student, validFields({ name: 'Vape pen, barely used' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: prohibitedMessage('drugs and vapes', 'vape'),
      code: 'VALIDATION',
    });
    expect((await call(t, student, 'GET', '/listings/self')).json()).toEqual([]);
    const ok = await postListing(t, student, validFields({ name: 'Desk fan' }));
    const edit = await call(t, student, 'PATCH', `/listing/${ok.id}`, {
      description: 'Also selling my parking pass',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toContain('meal swipes, parking permits and student IDs');
    expect(((await call(t, student, 'GET', `/listing/${ok.id}`)).json() as Listing).description).toBe(
      validFields().description,
    );
  });

  it('invisible characters and look-alikes do not get a listing, an edit or a wanted post through', async () => {
    const seller = await createStudent(t);
    const vape = prohibitedMessage('drugs and vapes', 'vape');
    for (const name of [
      'V\u0430pe pen',
      'Va\u200Bpe pen',
      'Va\u00ADpe pen',
      '\uFF36\uFF41\uFF50\uFF45 pen',
    ]) {
      const res = await create(seller, validFields({ name }));
      expect([res.statusCode, res.json()], JSON.stringify(name)).toEqual([
        400,
        { message: vape, code: 'VALIDATION' },
      ]);
    }
    expect((await call(t, seller, 'GET', '/listings/self')).json()).toEqual([]);
    const ok = await postListing(t, seller, validFields({ name: 'Desk fan' }));
    const edit = await call(t, seller, 'PATCH', `/listing/${ok.id}`, {
      description: 'Comes with a v\u2060ape',
    });
    expect([edit.statusCode, edit.json().message]).toEqual([400, vape]);
    const wanted = await call(t, seller, 'POST', '/wanted', {
      title: 'Looking for m\u0435al sw\u200Dipes',
      category: 'LIFESTYLE',
    });
    expect([wanted.statusCode, wanted.json().message]).toEqual([
      400,
      prohibitedMessage('meal swipes, parking permits and student IDs', 'meal swipes'),
    ]);
  });

  it('refuses a wanted post naming the rule', async () => {
    const res = await call(t, student, 'POST', '/wanted', {
      title: 'Looking for meal swipes',
      category: 'LIFESTYLE',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      prohibitedMessage('meal swipes, parking permits and student IDs', 'meal swipes'),
    );
    expect(
      (await call(t, student, 'POST', '/wanted', { title: 'Looking for a desk lamp', category: 'LIFESTYLE' }))
        .statusCode,
    ).toBe(201);
  });

  it('allows 20 new listings a day, then 429 with a clear message, deleting does not give one back', async () => {
    const poster = await createStudent(t);
    for (let i = 0; i < 20; i += 1) {
      const res = await create(poster, validFields({ name: `Book ${i}` }));
      expect(res.statusCode, `listing ${i}`).toBe(201);
    }
    const mine = (await call(t, poster, 'GET', '/listings/self?limit=1')).json() as Listing[];
    await call(t, poster, 'DELETE', `/listing/${mine[0]?.id}`);
    const refused = await create(poster, validFields({ name: 'Book 21' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: SAFETY_MESSAGES.dailyListings, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Editing is not posting.
    const another = (await call(t, poster, 'GET', '/listings/self?limit=1')).json() as Listing[];
    expect(
      (await call(t, poster, 'PATCH', `/listing/${another[0]?.id}`, { name: 'Book renamed' })).statusCode,
    ).toBe(200);
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    poster.token = (
      await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: poster.email, password: poster.password },
      })
    ).body;
    expect((await create(poster, validFields({ name: 'Book 21' }))).statusCode).toBe(201);
  });
});
