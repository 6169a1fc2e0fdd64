import { MESSAGES, roomIdFor, type ChatRoomSummary } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { createListing, sendAs } from './testing.js';

/** Deleting a listing does not end the conversation about it. */
describe.each(dialects)('a conversation about a deleted listing (%s)', (dialect) => {
  let t: TestApp;
  let buyer: Student;
  let seller: Student;
  let stranger: Student;
  let listingId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    buyer = await createStudent(t, { firstName: 'Dee', lastName: 'Buyer' });
    seller = await createStudent(t, { firstName: 'Del', lastName: 'Seller' });
    stranger = await createStudent(t, { firstName: 'Sid', lastName: 'Stranger' });
    listingId = await createListing(t, seller.id, 'Gone lamp');
    await sendAs(t, buyer.id, buyer.id, seller.id, { content: 'Still there?', listingId });
    await t.app.ctx.db.kysely.deleteFrom('listings').where('id', '=', listingId).execute();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lets both students keep talking in the room that held it', async () => {
    const reply = await sendAs(t, seller.id, buyer.id, seller.id, {
      content: 'I deleted it, but I still have it',
      listingId,
    });
    expect(reply.listingId).toBe(listingId);
    await sendAs(t, buyer.id, buyer.id, seller.id, { content: 'Great', listingId });
    const room = roomIdFor(buyer.id, seller.id);
    const history = await asStudent(t, buyer, { method: 'GET', url: `/api/chats/${room}` });
    expect(history.statusCode).toBe(200);
    expect((history.json() as unknown[]).length).toBe(3);
    const rooms = await asStudent(t, buyer, { method: 'GET', url: '/api/chats' });
    const summary = (rooms.json() as ChatRoomSummary[]).find((r) => r.id === room);
    // The room keeps no reference to the deleted row.
    expect(summary?.listingId).toBeNull();
    expect(summary?.listing).toBeNull();
  });

  it('still refuses a deleted listing the room never talked about', async () => {
    await expect(
      sendAs(t, stranger.id, stranger.id, seller.id, { content: 'hi', listingId }),
    ).rejects.toMatchObject({ message: MESSAGES.listingNotFound });
    await expect(
      sendAs(t, buyer.id, buyer.id, seller.id, { content: 'hi', listingId: 999_999 }),
    ).rejects.toMatchObject({ message: MESSAGES.listingNotFound });
  });
});
