/**
 * Numbers beyond the database's integer range: refused with the same 4xx on
 * SQLite and PostgreSQL, where they used to reach PostgreSQL and answer 500.
 */
import { CHAT_LIMIT_MESSAGES, DB_INT_MAX, MESSAGES, STOMP_PATHS, type ChatErrorBody } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { collect, connectOrThrow } from '../chat/stomp/testing.js';
import { createListing, listen, sendAs } from '../chat/testing.js';

const HUGE = '99999999999999';
const JUST_OVER = String(DB_INT_MAX + 1);
const cursor = (body: object) => Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');

describe.each(dialects)('numbers outside the database range (%s)', (dialect) => {
  let t: TestApp;
  let alice: Student;
  let bob: Student;
  let listingId: number;
  let roomId: string;
  let client: Client | undefined;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    alice = await createStudent(t);
    bob = await createStudent(t);
    listingId = await createListing(t, bob.id);
    roomId = `${Math.min(alice.id, bob.id)}:${Math.max(alice.id, bob.id)}`;
  });
  afterAll(async () => {
    await client?.deactivate();
    await t.close();
  });

  const get = (url: string) => asStudent(t, alice, { method: 'GET', url });

  it.each([
    ['/users/{huge}', `/users/${HUGE}`, 400],
    ['/users/{just over}', `/users/${JUST_OVER}`, 400],
    ['/users/{max int}', `/users/${DB_INT_MAX}`, 404],
    ['/listing/{huge}', `/listing/${HUGE}`, 400],
    ['browse cursor id', `/listings?cursor=${cursor({ k: 'b', i: 2 ** 40 })}`, 400],
    ['price cursor', `/listings/filters?sort=price_asc&cursor=${cursor({ k: 'p', p: 2 ** 40, i: 1 })}`, 400],
    [
      'price cursor id',
      `/listings/filters?sort=price_desc&cursor=${cursor({ k: 'p', p: 1, i: 2 ** 40 })}`,
      400,
    ],
    ['search cursor id', `/listings/search?query=lamp&cursor=${cursor({ k: 's', s: 0.1, i: 2 ** 40 })}`, 400],
    ['priceMin', `/listings/filters?priceMin=${HUGE}`, 400],
    ['priceMax', `/listings/search?query=lamp&priceMax=${JUST_OVER}`, 400],
    ['a room of a user id beyond the range', `/api/chats/1:${HUGE}`, 404],
  ])('GET %s → %i', async (_what, url, status) => {
    expect((await get(url)).statusCode).toBe(status);
  });

  it('after / before of chat history', async () => {
    const send = await sendAs(t, alice.id, alice.id, bob.id, { content: 'hi', listingId });
    expect(send.id).toBeGreaterThan(0);
    for (const q of [`after=${HUGE}`, `before=${JUST_OVER}`]) {
      const res = await get(`/api/chats/${roomId}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.chatInvalidPage, code: 'VALIDATION' });
    }
    expect((await asStudent(t, alice, { method: 'POST', url: `/api/chats/1:${HUGE}/read` })).statusCode).toBe(
      404,
    );
  });

  it('a price beyond the range on create', async () => {
    const res = await asStudent(t, alice, {
      method: 'POST',
      url: '/listing',
      payload: { name: 'Lamp', category: 'LIFESTYLE', description: 'Bright', price: HUGE },
    });
    expect(res.statusCode).toBe(400);
  });

  it('no documented route answers 500 for an id beyond the range in its path', async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const failures: string[] = [];
    for (const [path, ops] of Object.entries(spec.paths)) {
      if (!path.includes('{')) continue;
      const url = path.replace(/\{roomId\}/g, `1:${HUGE}`).replace(/\{\w+\}/g, HUGE);
      for (const method of Object.keys(ops)) {
        const res = await asStudent(t, alice, {
          method: method.toUpperCase() as 'GET',
          url,
          ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
        });
        if (res.statusCode >= 500)
          failures.push(`${method.toUpperCase()} ${path}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('SEND with a listingId or a student id beyond the range: a VALIDATION error, the session stays open', async () => {
    client = await connectOrThrow(await listen(t.app), { Authorization: `Bearer ${alice.token}` });
    const errors = collect(client, STOMP_PATHS.errors);
    client.publish({
      destination: `/app/chat.send/${alice.id}/${bob.id}`,
      body: JSON.stringify({ content: 'hello', listingId: Number(HUGE) }),
      headers: { receipt: 'big-listing' },
    });
    const first = JSON.parse((await errors.next()).body) as ChatErrorBody;
    expect(first).toMatchObject({ code: 'VALIDATION', receiptId: 'big-listing' });
    client.publish({
      destination: `/app/chat.send/${alice.id}/${HUGE}`,
      body: JSON.stringify({ content: 'hello', listingId }),
      headers: { receipt: 'big-peer' },
    });
    const second = JSON.parse((await errors.next()).body) as ChatErrorBody;
    expect(second).toEqual({
      message: CHAT_LIMIT_MESSAGES.numberOutOfRange,
      code: 'VALIDATION',
      receiptId: 'big-peer',
    });
    expect(client.connected).toBe(true);
  });
});
