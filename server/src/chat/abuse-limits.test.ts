/** Chat limits through the real app: a CONNECT during a password change, and the SEND rate. */
import { CHAT_LIMIT_MESSAGES, MESSAGES, STOMP_PATHS, type ChatErrorBody } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { collect, connectOrThrow, connectStomp, receiptFor } from './stomp/testing.js';
import { createListing, listen } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });

describe.each(variants)('chat limits and abuse ($dialect, redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let url: string;
  const open: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, redis });
    url = await listen(t.app);
  });

  afterAll(async () => {
    for (const c of open) await c.deactivate();
    await t?.close();
  });

  it('does not let a CONNECT authenticated during a password change survive it', async () => {
    const student = await createStudent(t);
    const original = t.app.ctx.authenticate;
    let changed = false;
    // The password changes after the CONNECT's token check and before its session is registered.
    t.app.ctx.authenticate = async (token) => {
      const principal = await original(token);
      if (!changed) {
        changed = true;
        const res = await asStudent(t, student, {
          method: 'PUT',
          url: '/users/password/change',
          payload: { currentPassword: student.password, newPassword: 'a-brand-new-passphrase-9' },
        });
        expect(res.statusCode).toBe(200);
      }
      return principal;
    };
    try {
      const outcome = await connectStomp(url, bearer(student));
      if (outcome.ok) open.push(outcome.client);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error?.headers['message']).toBe(MESSAGES.chatSessionRevoked);
      expect(t.app.chat.stomp.sessionsOf(student.id)).toHaveLength(0);
    } finally {
      t.app.ctx.authenticate = original;
    }
  });

  it('accepts bursts of 20 SENDs, then 5 per second, refusing the rest on /user/queue/errors', async () => {
    const buyer = await createStudent(t);
    const seller = await createStudent(t);
    const listingId = await createListing(t, seller.id);
    const client = await connectOrThrow(url, bearer(buyer));
    open.push(client);
    const errors = collect(client, STOMP_PATHS.errors);
    const destination = `/app/chat.send/${buyer.id}/${seller.id}`;
    const send = (i: number) =>
      client.publish({
        destination,
        body: JSON.stringify({ content: `m${i}`, listingId }),
        headers: { receipt: `m${i}` },
      });

    for (let i = 0; i < 20; i++) send(i);
    await receiptFor(client, 'm19');
    send(20);
    const refused = JSON.parse((await errors.next()).body) as ChatErrorBody;
    expect(refused).toEqual({
      message: CHAT_LIMIT_MESSAGES.sendRateLimited,
      code: 'RATE_LIMITED',
      receiptId: 'm20',
    });

    t.clock.advance(1_000); // five more tokens
    for (let i = 21; i < 26; i++) send(i);
    await receiptFor(client, 'm25');
    send(26);
    expect((JSON.parse((await errors.next()).body) as ChatErrorBody).receiptId).toBe('m26');
    expect(client.connected).toBe(true);

    const history = await asStudent(t, buyer, {
      method: 'GET',
      url: `/api/chats/${Math.min(buyer.id, seller.id)}:${Math.max(buyer.id, seller.id)}`,
    });
    expect((history.json() as unknown[]).length).toBe(25);
  });
});
