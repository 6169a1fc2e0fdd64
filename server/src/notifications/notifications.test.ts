import {
  NOTIFICATION_KINDS,
  NOTIFY_STOMP_PATHS,
  STOMP_PATHS,
  roomIdFor,
  type AppNotification,
  type NotificationPage,
  type NotificationSettings,
  type PresenceFrame,
} from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';
import { listen } from '../chat/testing.js';
import { postListing, validFields } from '../listings/testing.js';
import { campusMorning } from './testing.js';
import { unsubscribeToken } from './unsubscribe.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));
const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });
const HOUR = 3_600_000;

describe.each(variants)('notifications ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  let seller: Student;
  let buyer: Student;
  let stranger: Student;
  const open: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, redis, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    url = await listen(t.app);
    seller = await createStudent(t, { firstName: 'Sally' });
    buyer = await createStudent(t, { firstName: 'Bob' });
    stranger = await createStudent(t);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.deactivate()));
  });
  afterAll(async () => {
    await t.close();
  });

  async function connect(s: Student): Promise<Client> {
    const client = await connectOrThrow(url, bearer(s));
    open.push(client);
    return client;
  }
  const centre = async (s: Student, query = '') =>
    (await asStudent(t, s, { method: 'GET', url: `/notifications${query}` })).json() as NotificationPage;
  const runJobs = () => t.app.ctx.jobs.runDue();

  it('a saved-search match reaches the centre, live on STOMP and by e-mail with one-click unsubscribe', async () => {
    const client = await connect(buyer);
    const live = collect(client, NOTIFY_STOMP_PATHS.notifications, { receipt: 'sub-n' });
    await receiptFor(client, 'sub-n');
    const saved = await asStudent(t, buyer, { method: 'POST', url: '/searches', payload: { query: 'lamp' } });
    expect(saved.statusCode).toBe(201);

    const mailsBefore = t.mail.count(buyer.email);
    await postListing(
      t,
      seller,
      validFields({ name: 'Brass desk lamp', category: 'LIFESTYLE', price: '20' }),
    );
    await runJobs();

    const frame = JSON.parse((await live.next()).body) as {
      notification: AppNotification;
      unreadCount: number;
    };
    expect(frame.notification).toMatchObject({ type: 'SAVED_SEARCH_MATCH', readAt: null });
    expect(frame.notification.title).toContain('lamp');
    expect(frame.unreadCount).toBe(1);

    const page = await centre(buyer);
    expect(page.unreadCount).toBe(1);
    expect(page.notifications[0]).toMatchObject({
      id: frame.notification.id,
      type: 'SAVED_SEARCH_MATCH',
      body: 'Brass desk lamp — $20',
    });
    expect(page.notifications[0]!.link).toMatch(/^\/single_listing\/\d+$/);
    // The seller and a stranger see nothing of it.
    expect((await centre(seller)).notifications).toHaveLength(0);
    expect((await centre(stranger)).unreadCount).toBe(0);

    // The real e-mail: HTML + text, campus name, call to action, RFC 8058 headers.
    const mail = await t.mail.waitFor(buyer.email, mailsBefore);
    expect(mail.subject).toContain('lamp');
    expect(mail.html).toContain('MSU Campus Market');
    expect(mail.html).toContain('See the listing');
    expect(mail.text).toContain(`See the listing: ${t.app.ctx.config.publicUrl}/single_listing/`);
    expect(mail.mailHeaders?.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const link = /<(http[^>]+)>/.exec(mail.mailHeaders?.get('list-unsubscribe') ?? '')?.[1];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;

    // GET only shows a page with a button; nothing changes.
    const pageRes = await t.app.inject({ method: 'GET', url: path });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.headers['content-type']).toContain('text/html');
    expect(pageRes.body).toContain('<button type="submit">Unsubscribe</button>');
    let settings = (
      await asStudent(t, buyer, { method: 'GET', url: '/users/me/notification-settings' })
    ).json() as NotificationSettings;
    expect(settings.kinds.SAVED_SEARCH_MATCH.email).toBe(true);

    // A tampered link (another kind, another student) is refused.
    const forged = path.replace('SAVED_SEARCH_MATCH', 'WANTED_MATCH');
    expect((await t.app.inject({ method: 'POST', url: forged })).statusCode).toBe(400);
    const otherUser = path.replace(`.${buyer.id}.`, `.${stranger.id}.`);
    expect(otherUser).not.toBe(path);
    expect((await t.app.inject({ method: 'POST', url: otherUser })).statusCode).toBe(400);

    // The one-click POST, without logging in, switches off that kind's e-mail only.
    const post = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    settings = (
      await asStudent(t, buyer, { method: 'GET', url: '/users/me/notification-settings' })
    ).json() as NotificationSettings;
    expect(settings.kinds.SAVED_SEARCH_MATCH).toEqual({ email: false, push: true });
    expect(settings.kinds.WANTED_MATCH).toEqual({ email: true, push: true });

    // The next match lands in the centre but sends no e-mail.
    const before = t.mail.count(buyer.email);
    await postListing(t, seller, validFields({ name: 'Floor lamp', category: 'LIFESTYLE', price: '35' }));
    await runJobs();
    expect((await centre(buyer)).unreadCount).toBe(2);
    expect(t.mail.count(buyer.email)).toBe(before);
  });

  it('pages newest first and moves the read marker; refuses bad input and anonymous callers', async () => {
    const page1 = await centre(buyer, '?limit=1');
    expect(page1.notifications).toHaveLength(1);
    expect(page1.nextBefore).toBe(page1.notifications[0]!.id);
    const page2 = await centre(buyer, `?limit=1&before=${page1.nextBefore}`);
    expect(page2.notifications[0]!.id).toBeLessThan(page1.notifications[0]!.id);

    const client = await connect(buyer);
    const live = collect(client, NOTIFY_STOMP_PATHS.notifications, { receipt: 'sub-r' });
    await receiptFor(client, 'sub-r');
    const read = await asStudent(t, buyer, {
      method: 'POST',
      url: '/notifications/read',
      payload: { upTo: page2.notifications[0]!.id },
    });
    expect(read.json()).toEqual({ unreadCount: 1 });
    // Other tabs learn the new count.
    expect(JSON.parse((await live.next()).body)).toMatchObject({ type: 'read', unreadCount: 1 });
    const after = await centre(buyer);
    expect(after.notifications.find((n) => n.id === page2.notifications[0]!.id)?.readAt).not.toBeNull();
    // Someone else's marker never touches the buyer's rows.
    await asStudent(t, stranger, {
      method: 'POST',
      url: '/notifications/read',
      payload: { upTo: 2147483647 },
    });
    expect((await centre(buyer)).unreadCount).toBe(1);

    for (const payload of [{}, { upTo: 0 }, { upTo: 'x' }, { upTo: 2 ** 40 }]) {
      const res = await asStudent(t, buyer, { method: 'POST', url: '/notifications/read', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('code', 'VALIDATION');
    }
    expect((await asStudent(t, buyer, { method: 'GET', url: '/notifications?limit=500' })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: '/notifications' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/notifications/read', payload: { upTo: 1 } })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/users/me/notification-settings' })).statusCode).toBe(
      401,
    );
  });

  it('settings: every kind per channel, partial updates, bad kinds refused', async () => {
    const get = await asStudent(t, stranger, { method: 'GET', url: '/users/me/notification-settings' });
    const all = get.json() as NotificationSettings;
    expect(Object.keys(all.kinds).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    const put = await asStudent(t, stranger, {
      method: 'PUT',
      url: '/users/me/notification-settings',
      payload: { kinds: { PRICE_DROP: { push: false }, CHAT_MESSAGE: { email: false } } },
    });
    expect(put.statusCode).toBe(200);
    const updated = put.json() as NotificationSettings;
    expect(updated.kinds.PRICE_DROP).toEqual({ email: true, push: false });
    expect(updated.kinds.CHAT_MESSAGE).toEqual({ email: false, push: true });
    for (const payload of [
      { kinds: { NOPE: { email: false } } },
      { kinds: {} },
      { kinds: { PRICE_DROP: { email: 'no' } } },
    ]) {
      const res = await asStudent(t, stranger, {
        method: 'PUT',
        url: '/users/me/notification-settings',
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('PRICE_DROP: only for a fall of 10 % or more from the last announced price, to those who saved it', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Road bike', category: 'OTHER', price: '100' }),
    );
    await asStudent(t, buyer, { method: 'PUT', url: `/listings/${listing.id}/save` });
    const drops = async () =>
      (await centre(buyer, '?limit=50')).notifications.filter((n) => n.type === 'PRICE_DROP');
    const edit = async (price: string) => {
      const res = await asStudent(t, seller, {
        method: 'PATCH',
        url: `/listing/${listing.id}`,
        payload: { price },
      });
      expect(res.statusCode).toBe(200);
      await runJobs();
    };
    await edit('95');
    expect(await drops()).toHaveLength(0);
    await edit('91');
    expect(await drops()).toHaveLength(0);
    // 100 → 90 in steps: 10 % in all.
    await edit('90');
    const [first] = await drops();
    expect(first).toMatchObject({ title: 'Price drop: Road bike', body: 'Now $90 (was $100, 10 % less).' });
    // The next one counts from $90 (and, for the same saver, comes a day later: price-drop.test.ts).
    t.clock.advance(24 * HOUR);
    await edit('82');
    expect(await drops()).toHaveLength(1);
    await edit('81');
    expect(await drops()).toHaveLength(2);
    // The seller, who cannot save their own listing, gets nothing.
    expect((await centre(seller)).notifications.filter((n) => n.type === 'PRICE_DROP')).toHaveLength(0);
  });

  it('quiet hours: e-mail waits for 07:00 campus time while the centre gets it at once', async () => {
    const quietBuyer = await createStudent(t);
    await asStudent(t, quietBuyer, { method: 'POST', url: '/searches', payload: { query: 'kayak' } });
    const morning = t.clock.nowMs;
    // 23:00 in Detroit (EST in November: UTC-5).
    t.clock.nowMs = campusMorning(morning, 23);
    const before = t.mail.count(quietBuyer.email);
    await postListing(t, seller, validFields({ name: 'Blue kayak', category: 'OTHER', price: '150' }));
    await runJobs();
    expect((await centre(quietBuyer)).unreadCount).toBe(1);
    t.clock.advance(7 * HOUR + 59 * 60_000); // 06:59
    await runJobs();
    expect(t.mail.count(quietBuyer.email)).toBe(before);
    t.clock.advance(60_000); // 07:00
    await runJobs();
    const mail = await t.mail.waitFor(quietBuyer.email, before);
    expect(mail.subject).toContain('kayak');
    t.clock.nowMs = campusMorning(t.clock.nowMs);
  });

  it('unread chat: one e-mail 10 minutes after, at most one an hour per room', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Mini fridge', category: 'LIFESTYLE', price: '60' }),
    );
    const room = roomIdFor(buyer.id, seller.id);
    const client = await connect(buyer);
    const send = async (content: string) => {
      client.publish({
        destination: `${STOMP_PATHS.sendPrefix}${buyer.id}/${seller.id}`,
        body: JSON.stringify({ content, listingId: listing.id }),
        headers: { receipt: content },
      });
      await receiptFor(client, content);
    };
    const before = t.mail.count(seller.email);
    await send('Is the fridge still available?');
    t.clock.advance(9 * 60_000);
    await runJobs();
    expect(t.mail.count(seller.email)).toBe(before);
    t.clock.advance(60_000);
    await runJobs();
    const mail = await t.mail.waitFor(seller.email, before);
    expect(mail.subject).toBe('Bob sent you a message');
    expect(mail.text).toContain('Is the fridge still available?');
    expect(mail.text).toContain(`/chat/${room}`);
    expect(mail.mailHeaders?.get('list-unsubscribe')).toContain('CHAT_MESSAGE');

    // More messages within the hour: no second e-mail until the hour is over.
    await send('Hello?');
    t.clock.advance(20 * 60_000);
    await runJobs();
    expect(t.mail.count(seller.email)).toBe(before + 1);
    t.clock.advance(39 * 60_000); // 59 minutes after the first e-mail
    await runJobs();
    expect(t.mail.count(seller.email)).toBe(before + 1);
    t.clock.advance(60_000);
    await runJobs();
    expect((await t.mail.waitFor(seller.email, before + 1)).subject).toBe('Bob sent you 2 messages');

    // Read in time: nothing.
    await send('Never mind');
    await asStudent(t, seller, { method: 'POST', url: `/api/chats/${room}/read` });
    t.clock.advance(2 * HOUR);
    await runJobs();
    expect(t.mail.count(seller.email)).toBe(before + 2);
  });

  it('typing is relayed to the other party at most once per 3 s; Seen follows the read marker', async () => {
    const room = roomIdFor(buyer.id, seller.id);
    const sellerClient = await connect(seller);
    const buyerClient = await connect(buyer);
    const sellerPresence = collect(sellerClient, NOTIFY_STOMP_PATHS.presence, { receipt: 'sp' });
    const buyerPresence = collect(buyerClient, NOTIFY_STOMP_PATHS.presence, { receipt: 'bp' });
    await receiptFor(sellerClient, 'sp');
    await receiptFor(buyerClient, 'bp');

    for (const r of ['t1', 't2', 't3']) {
      buyerClient.publish({
        destination: `${NOTIFY_STOMP_PATHS.typingPrefix}${room}`,
        body: '',
        headers: { receipt: r },
      });
      await receiptFor(buyerClient, r);
    }
    const typing = JSON.parse((await sellerPresence.next()).body) as PresenceFrame;
    expect(typing).toEqual({ type: 'typing', roomId: room, userId: buyer.id });

    // A stranger cannot type into the room: an application error, the session stays open.
    const strangerClient = await connect(stranger);
    const errors = collect(strangerClient, STOMP_PATHS.errors, { receipt: 'se' });
    await receiptFor(strangerClient, 'se');
    strangerClient.publish({ destination: `${NOTIFY_STOMP_PATHS.typingPrefix}${room}`, body: '' });
    expect(JSON.parse((await errors.next()).body)).toHaveProperty('code', 'FORBIDDEN');

    // Seen: the seller reads; the buyer is told up to which message.
    const read = await asStudent(t, seller, { method: 'POST', url: `/api/chats/${room}/read` });
    const { lastReadMessageId } = read.json() as { lastReadMessageId: number };
    const seen = JSON.parse((await buyerPresence.next()).body) as PresenceFrame;
    expect(seen).toEqual({ type: 'seen', roomId: room, userId: seller.id, lastReadMessageId });
    // Only one typing frame reached the seller for the three SENDs.
    expect(sellerPresence.messages).toHaveLength(1);
    const presence = await asStudent(t, buyer, { method: 'GET', url: `/api/chats/${room}/presence` });
    expect(presence.json()).toEqual({ roomId: room, peerLastReadMessageId: lastReadMessageId });
    expect(
      (await asStudent(t, stranger, { method: 'GET', url: `/api/chats/${room}/presence` })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/chats/${room}/presence` })).statusCode).toBe(401);
  });

  it('unsubscribe links are per student and kind and refuse garbage', async () => {
    const secret = t.app.ctx.config.jwtSecret;
    const owner = { userId: stranger.id, campusId: stranger.campusId };
    const token = unsubscribeToken(secret, owner, 'OFFER_RECEIVED');
    expect(token).not.toBe(unsubscribeToken(secret, owner, 'OFFER_ANSWERED'));
    for (const bad of [
      'x',
      `${stranger.id}.NOPE.${'a'.repeat(32)}`,
      `${token}x`,
      '99999999999.OFFER_RECEIVED.x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/public/unsubscribe/${bad}` });
      expect(res.statusCode).toBe(400);
    }
  });
});
