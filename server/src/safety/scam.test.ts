import { SAFETY_LIMITS, roomIdFor, type ChatMessage } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';
import { createListing, listen, parseMessage } from '../chat/testing.js';
import { scamFlags } from './scam.js';
import { bearer, call } from './testing.js';

/** Messages students really receive from scammers, each with the flag it must raise. */
const SCAMS: Array<[string, string]> = [
  ['Can you Venmo me $50 first to hold it? Lots of people want it', 'PAY_FIRST'],
  ['Send the deposit on Zelle and I will keep it for you', 'PAY_FIRST'],
  ['I need a small deposit before we meet, cash app is fine', 'PAY_FIRST'],
  ['Pay upfront through PayPal friends and family please', 'PAY_FIRST'],
  ['zelle first then i bring it to your dorm', 'PAY_FIRST'],
  ['Please pay me first, then we meet', 'PAY_FIRST'],
  ['Can you pay with Apple gift cards? Send me the card numbers', 'GIFT_CARD'],
  ['I only accept steam cards', 'GIFT_CARD'],
  ["I'm out of state right now, my courier will pick it up", 'SHIPPING'],
  ['I will ship it via FedEx once you pay the shipping fee', 'SHIPPING'],
  ['Before we meet I need to verify you are real. Send me the code you got by text', 'VERIFICATION_CODE'],
  ['Google sent you a 6 digit code, can you read it to me?', 'VERIFICATION_CODE'],
  ['Please send me the verification code so I know you are not a bot', 'VERIFICATION_CODE'],
  ['Send a photo of your student ID so I know you go to MSU', 'STUDENT_ID'],
  ['Can you send me a pic of your student id card first', 'STUDENT_ID'],
  ['I overpaid you by $200 by mistake, please refund the difference', 'OVERPAYMENT'],
  ['My mom sent you too much, just send back the extra', 'OVERPAYMENT'],
  ['Text me at 517-555-0199, I barely check this app', 'CONTACT_OFF_APP'],
  ['email me: deals4u@gmail.com', 'CONTACT_OFF_APP'],
  ['More pictures here: https://bit.ly/3xYz', 'CONTACT_OFF_APP'],
  ['whatsapp me +1 (517) 555 0199', 'CONTACT_OFF_APP'],
];

/** Ordinary messages that must never be flagged. */
const ORDINARY = [
  'I can pay cash when we meet',
  "my number is in my profile? no, let's use the chat",
  'Is it still available?',
  'Can we meet at the library at 3pm tomorrow?',
  'I will bring exact change, $45 right?',
  'Does the calculator come with the cover?',
  'First of all, thanks for the quick reply!',
  "I'll Venmo you when we meet at the union, is that ok?",
  'Can I pay with Venmo at pickup?',
  'Does the ID card holder come with it?',
  'My class is CSE 232, is this the right edition?',
  'See you at 4:30 by the Spartan statue',
  'The code for the textbook access was already used?',
  'It is in good condition, no scratches',
];

describe('anti-scam patterns', () => {
  it.each(SCAMS)('flags %j as %s', (message, flag) => {
    expect(scamFlags(message, 0)).toContain(flag);
  });

  it.each(ORDINARY)('does not flag %j', (message) => {
    expect(scamFlags(message, 0)).toEqual([]);
  });

  it.each([
    ['Send a $50 dep\u200Bosit on v\u0435nmo first', 'PAY_FIRST'],
    ['Can you \uFF36\uFF45\uFF4E\uFF4D\uFF4F me first?', 'PAY_FIRST'],
    ['I only take g\u0456ft c\u0430rds', 'GIFT_CARD'],
    ['S\u0435nd me the c\u043Ede you got', 'VERIFICATION_CODE'],
    ['wh\u00ADatsapp me 517 555 0199', 'CONTACT_OFF_APP'],
  ])('sees through invisible characters and look-alikes in %j', (message, flag) => {
    expect(scamFlags(message, 0)).toContain(flag);
  });

  it('flags contact details only early in a conversation; payment tricks always', () => {
    const late = SAFETY_LIMITS.earlyMessages;
    expect(scamFlags('call me at 517-555-0199', late)).toEqual([]);
    expect(scamFlags('call me at 517-555-0199', late - 1)).toEqual(['CONTACT_OFF_APP']);
    expect(scamFlags('Venmo me first please', 500)).toEqual(['PAY_FIRST']);
  });
});

describe.each(dialects)('anti-scam flags in chat (%s)', (dialect) => {
  let t: TestApp;
  let url: string;
  let buyer: Student;
  let seller: Student;
  let listingId: number;
  const open: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    url = await listen(t.app);
    buyer = await createStudent(t);
    seller = await createStudent(t);
    listingId = await createListing(t, seller.id, 'Mini fridge');
  });
  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await t.close();
  });

  it('delivers a flagged message to the recipient with flags, the sender without; history the same; nothing blocked', async () => {
    const room = roomIdFor(buyer.id, seller.id);
    const buyerClient = await connectOrThrow(url, bearer(buyer));
    const sellerClient = await connectOrThrow(url, bearer(seller));
    open.push(buyerClient, sellerClient);
    const atBuyer = collect(buyerClient, `/user/queue/chat/${room}`, { receipt: 'b' });
    const atSeller = collect(sellerClient, `/user/queue/chat/${room}`, { receipt: 's' });
    const inboxBuyer = collect(buyerClient, '/user/queue/chats', { receipt: 'bi' });
    await Promise.all([
      receiptFor(buyerClient, 'b'),
      receiptFor(sellerClient, 's'),
      receiptFor(buyerClient, 'bi'),
    ]);

    sellerClient.publish({
      destination: `/app/chat.send/${buyer.id}/${seller.id}`,
      body: JSON.stringify({ content: 'Zelle me a $30 deposit first to hold it', listingId }),
    });
    const [own, theirs, inbox] = await Promise.all([atSeller.next(), atBuyer.next(), inboxBuyer.next()]);
    expect(parseMessage(theirs.body).flags).toEqual(['PAY_FIRST']);
    expect(parseMessage(inbox.body).flags).toEqual(['PAY_FIRST']);
    expect(parseMessage(own.body)).not.toHaveProperty('flags');
    expect(parseMessage(own.body).content).toBe('Zelle me a $30 deposit first to hold it');

    sellerClient.publish({
      destination: `/app/chat.send/${buyer.id}/${seller.id}`,
      body: JSON.stringify({ content: 'I can meet at the union at 5', listingId }),
    });
    expect(parseMessage((await atBuyer.next()).body)).not.toHaveProperty('flags');

    const history = (s: Student) =>
      call(t, s, 'GET', `/api/chats/${room}`).then((r) => r.json() as ChatMessage[]);
    const [forBuyer, forSeller] = await Promise.all([history(buyer), history(seller)]);
    expect(forBuyer.map((m) => m.flags ?? [])).toEqual([['PAY_FIRST'], []]);
    expect(forSeller.map((m) => m.flags ?? [])).toEqual([[], []]);
    expect(forSeller.every((m) => !('flags' in m))).toBe(true);
    // A look-alike letter and a zero-width space hide nothing from the guard.
    sellerClient.publish({
      destination: `/app/chat.send/${buyer.id}/${seller.id}`,
      body: JSON.stringify({ content: 'V\u0435nmo me a dep\u200Bosit first', listingId }),
    });
    expect(parseMessage((await atBuyer.next()).body).flags).toEqual(['PAY_FIRST']);
    // The inbox preview carries no flags either way.
    const rooms = (await call(t, seller, 'GET', '/api/chats')).json() as Array<{ lastMessage: ChatMessage }>;
    expect(rooms[0]?.lastMessage).not.toHaveProperty('flags');
  });
});
