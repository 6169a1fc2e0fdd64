import { MESSAGES, SAFETY_MESSAGES, roomIdFor, type BlockedUser, type Listing } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { listen } from '../chat/testing.js';
import { postListing, validFields } from '../listings/testing.js';
import { assertNotBlocked } from './index.js';
import { call, sendOnce } from './testing.js';

describe.each(searchEngines)('blocks ($name)', ({ dialect, env: engineEnv }) => {
  let t: TestApp;
  let url: string;
  let alice: Student;
  let bob: Student;
  let carol: Student;
  let bobListing: Listing;
  const opened: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { DAILY_CONVERSATIONS_MAX: '20', ...engineEnv } });
    url = await listen(t.app);
    alice = await createStudent(t, { firstName: 'Alice' });
    bob = await createStudent(t, { firstName: 'Bob' });
    carol = await createStudent(t, { firstName: 'Carol' });
    bobListing = await postListing(t, bob, validFields({ name: 'Blue kettle' }));
    await postListing(t, carol, validFields({ name: 'Blue teapot' }));
  });
  afterAll(async () => {
    for (const c of opened) await c.deactivate();
    await t.close();
  });

  const names = (res: { json(): unknown }) => (res.json() as Listing[]).map((l) => l.name);

  it('refuses bad ids, oneself, unknown students and anonymous callers', async () => {
    expect((await call(t, alice, 'PUT', '/users/abc/block')).statusCode).toBe(400);
    expect((await call(t, alice, 'PUT', '/users/0/block')).statusCode).toBe(400);
    expect((await call(t, alice, 'PUT', '/users/99999999999/block')).statusCode).toBe(400);
    const self = await call(t, alice, 'PUT', `/users/${alice.id}/block`);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(SAFETY_MESSAGES.blockSelf);
    expect((await call(t, alice, 'PUT', '/users/999999/block')).statusCode).toBe(404);
    expect((await call(t, null, 'PUT', `/users/${bob.id}/block`)).statusCode).toBe(401);
    expect((await call(t, null, 'DELETE', `/users/${bob.id}/block`)).statusCode).toBe(401);
    expect((await call(t, null, 'GET', '/users/blocked')).statusCode).toBe(401);
  });

  it('a conversation before the block stays readable to both after it', async () => {
    const sendTo = `/app/chat.send/${alice.id}/${bob.id}`;
    expect(
      await sendOnce(
        url,
        alice,
        sendTo,
        { content: 'Is the kettle still there?', listingId: bobListing.id },
        opened,
      ),
    ).toBe('RECEIPT');
  });

  it('PUT is idempotent and GET /users/blocked lists the blocked student', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, alice, 'PUT', `/users/${bob.id}/block`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: bob.id, blocked: true });
    }
    const list = (await call(t, alice, 'GET', '/users/blocked')).json() as BlockedUser[];
    expect(list.map((b) => [b.id, b.firstName])).toEqual([[bob.id, 'Bob']]);
    // Only the blocker's list shows it.
    expect((await call(t, bob, 'GET', '/users/blocked')).json()).toEqual([]);
  });

  it("hides the blocked student's listings from the blocker in browse, category, filters, search and detail", async () => {
    expect(names(await call(t, alice, 'GET', '/listings'))).not.toContain('Blue kettle');
    expect(names(await call(t, alice, 'GET', '/listings'))).toContain('Blue teapot');
    expect(names(await call(t, alice, 'GET', '/listings/ELECTRONICS'))).not.toContain('Blue kettle');
    expect(names(await call(t, alice, 'GET', '/listings/filters?categories=ELECTRONICS'))).not.toContain(
      'Blue kettle',
    );
    const search = await call(t, alice, 'GET', '/listings/search?query=blue');
    expect(names(search)).toEqual(['Blue teapot']);
    const sorted = await call(t, alice, 'GET', '/listings/search?query=blue&sort=price_asc');
    expect(names(sorted)).toEqual(['Blue teapot']);
    const detail = await call(t, alice, 'GET', `/listing/${bobListing.id}`);
    expect(detail.statusCode).toBe(404);
    expect(detail.json().message).toBe(MESSAGES.listingNotFound);
    // Everyone else, and the blocked student, still see it (the hot cache is not the blocker's).
    expect(names(await call(t, carol, 'GET', '/listings'))).toContain('Blue kettle');
    expect(names(await call(t, bob, 'GET', '/listings/search?query=blue'))).toContain('Blue kettle');
    expect((await call(t, carol, 'GET', `/listing/${bobListing.id}`)).statusCode).toBe(200);
  });

  it('refuses chat SEND in both directions with an app-level error, the session staying open', async () => {
    for (const [from, buyer, seller] of [
      [alice, alice, bob],
      [bob, alice, bob],
    ] as const) {
      const refused = await sendOnce(
        url,
        from,
        `/app/chat.send/${buyer.id}/${seller.id}`,
        { content: 'hello?', listingId: bobListing.id },
        opened,
      );
      expect(refused).toMatchObject({ message: SAFETY_MESSAGES.blocked, code: 'FORBIDDEN' });
    }
  });

  it('keeps the room readable to both', async () => {
    const room = roomIdFor(alice.id, bob.id);
    for (const s of [alice, bob]) {
      const res = await call(t, s, 'GET', `/api/chats/${room}`);
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ content: string }>).map((m) => m.content)).toEqual([
        'Is the kettle still there?',
      ]);
    }
  });

  it('assertNotBlocked is the helper other features call: 403 either way, nothing for others', async () => {
    await expect(assertNotBlocked(t.app.ctx, alice.id, bob.id)).rejects.toMatchObject({
      statusCode: 403,
      message: SAFETY_MESSAGES.blocked,
    });
    await expect(assertNotBlocked(t.app.ctx, bob.id, alice.id)).rejects.toMatchObject({ statusCode: 403 });
    await expect(assertNotBlocked(t.app.ctx, alice.id, carol.id)).resolves.toBeUndefined();
  });

  it('unblocking restores listings and messaging', async () => {
    const res = await call(t, alice, 'DELETE', `/users/${bob.id}/block`);
    expect(res.json()).toEqual({ id: bob.id, blocked: false });
    expect((await call(t, alice, 'DELETE', `/users/${bob.id}/block`)).statusCode).toBe(200);
    expect(names(await call(t, alice, 'GET', '/listings'))).toContain('Blue kettle');
    expect((await call(t, alice, 'GET', `/listing/${bobListing.id}`)).statusCode).toBe(200);
    expect(
      await sendOnce(
        url,
        bob,
        `/app/chat.send/${alice.id}/${bob.id}`,
        { content: 'Yes it is', listingId: bobListing.id },
        opened,
      ),
    ).toBe('RECEIPT');
  });

  it('caps new conversations at 20 a day (429), existing ones go on, and the next day allows more', async () => {
    const sender = await createStudent(t, { firstName: 'Chatty' });
    const sellers: Student[] = [];
    for (let i = 0; i < 21; i += 1) sellers.push(await createStudent(t));
    const listings: number[] = [];
    for (const s of sellers)
      listings.push((await postListing(t, s, validFields({ name: `Item ${s.id}` }))).id);
    for (let i = 0; i < 20; i += 1) {
      // The chat's own send rate (a token bucket on the injected clock) is not under test here.
      t.clock.advance(1000);
      const seller = sellers[i] as Student;
      expect(
        await sendOnce(
          url,
          sender,
          `/app/chat.send/${sender.id}/${seller.id}`,
          { content: 'Hi', listingId: listings[i] },
          opened,
        ),
      ).toBe('RECEIPT');
    }
    const last = sellers[20] as Student;
    const refused = await sendOnce(
      url,
      sender,
      `/app/chat.send/${sender.id}/${last.id}`,
      { content: 'Hi', listingId: listings[20] },
      opened,
    );
    expect(refused).toMatchObject({ message: SAFETY_MESSAGES.dailyConversations, code: 'RATE_LIMITED' });
    // An existing conversation is not a new one.
    const first = sellers[0] as Student;
    expect(
      await sendOnce(
        url,
        sender,
        `/app/chat.send/${sender.id}/${first.id}`,
        { content: 'Still there?', listingId: listings[0] },
        opened,
      ),
    ).toBe('RECEIPT');
    // A reply in a room the other student started is not the replier's new conversation.
    expect(
      await sendOnce(
        url,
        first,
        `/app/chat.send/${sender.id}/${first.id}`,
        { content: 'Yes', listingId: listings[0] },
        opened,
      ),
    ).toBe('RECEIPT');
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    sender.token = (
      await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: sender.email, password: sender.password },
      })
    ).body;
    expect(
      await sendOnce(
        url,
        sender,
        `/app/chat.send/${sender.id}/${last.id}`,
        { content: 'Hi', listingId: listings[20] },
        opened,
      ),
    ).toBe('RECEIPT');
  });
});
