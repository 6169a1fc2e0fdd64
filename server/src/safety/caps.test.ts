import { STOMP_PATHS, dailyListingsMessage, type ChatErrorBody, type Listing } from '@campus/contract';
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
import { listen } from '../chat/testing.js';
import { multipart, postListing, validFields } from '../listings/testing.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';
import { bearer, call } from './testing.js';

/**
 * The daily caps hold under simultaneous requests: the count and the record are one step under a
 * per-student lock (safety/caps.ts), on both databases.
 */
describe.each(dialects)('daily caps under concurrency (%s)', (dialect) => {
  let t: TestApp;
  let url: string;
  const opened: Client[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      // Forty posts in flight at once, as N processes (each with its own upload gate) would take.
      env: { DAILY_LISTINGS_MAX: '5', DAILY_CONVERSATIONS_MAX: '3', UPLOADS_PER_STUDENT: '40' },
    });
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const c of opened) await c.deactivate();
    await t.close();
  });

  it('40 simultaneous new listings with a cap of 5 create exactly 5; the rest get the 429', async () => {
    const poster = await createStudent(t);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        asStudent(t, poster, {
          method: 'POST',
          url: '/listing',
          ...multipart(validFields({ name: `Lamp ${i}` })),
        }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(35);
    expect(answers.find((r) => r.statusCode === 429)?.json()).toEqual({
      message: dailyListingsMessage(5),
      code: 'RATE_LIMITED',
    });
    const mine = (await call(t, poster, 'GET', '/listings/self?limit=50')).json() as Listing[];
    expect(mine).toHaveLength(5);
  });

  it('12 simultaneous first messages with a cap of 3 open exactly 3 conversations', async () => {
    const sender = await createStudent(t);
    const sellers: Array<{ seller: Student; listingId: number }> = [];
    for (let i = 0; i < 12; i += 1) {
      const seller = await createStudent(t);
      sellers.push({
        seller,
        listingId: (await postListing(t, seller, validFields({ name: `Desk ${i}` }))).id,
      });
    }
    // Every session is connected and listening first, so the twelve SENDs leave at once.
    const sessions = await Promise.all(
      sellers.map(async () => {
        const client = await connectOrThrow(url, bearer(sender));
        opened.push(client);
        const errors = collect(client, STOMP_PATHS.errors, { receipt: 'sub-errors' });
        await receiptFor(client, 'sub-errors');
        return { client, errors };
      }),
    );
    const outcomes = await Promise.all(
      sessions.map(({ client, errors }, i) => {
        const { seller, listingId } = sellers[i]!;
        const stored = receiptFor(client, 'r-send', 10_000).then(() => 'RECEIPT' as const);
        client.publish({
          destination: `/app/chat.send/${sender.id}/${seller.id}`,
          body: JSON.stringify({ content: 'Hi', listingId }),
          headers: { receipt: 'r-send' },
        });
        const refused = errors.next(10_000).then((m) => JSON.parse(m.body) as ChatErrorBody);
        return Promise.race([stored, refused]);
      }),
    );
    expect(outcomes.filter((o) => o === 'RECEIPT')).toHaveLength(3);
    const refused = outcomes.filter((o) => o !== 'RECEIPT');
    expect(refused).toHaveLength(9);
    expect(refused[0]).toMatchObject({ code: 'RATE_LIMITED' });
    const rooms = (await call(t, sender, 'GET', '/api/chats')).json() as unknown[];
    expect(rooms).toHaveLength(3);
  });
});
