/** Test helpers for the safety module (used by its *.test.ts files only). */
import { STOMP_PATHS, roomIdFor, type ChatErrorBody, type Listing } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import {
  asStudent,
  createStudent,
  createTestApp,
  type Student,
  type TestApp,
  type TestDialect,
} from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';
import { postListing, validFields } from '../listings/testing.js';
import { campusMorning } from '../notifications/testing.js';

export const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });

export const MOD_EMAIL = 'moderator@msu.edu';

export function call(
  t: TestApp,
  s: Student | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const options = {
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  };
  return s ? asStudent(t, s, options) : t.app.inject(options);
}

/**
 * One SEND over a fresh STOMP session; resolves with the refusal on /user/queue/errors, or with
 * 'RECEIPT' when the server stored it. The session stays open either way.
 */
export async function sendOnce(
  url: string,
  student: Student,
  destination: string,
  body: Record<string, unknown>,
  opened: Client[],
): Promise<ChatErrorBody | 'RECEIPT'> {
  const client = await connectOrThrow(url, bearer(student));
  opened.push(client);
  const errors = collect(client, STOMP_PATHS.errors, { receipt: 'sub-errors' });
  await receiptFor(client, 'sub-errors');
  const stored = receiptFor(client, 'r-send', 5_000).then(() => 'RECEIPT' as const);
  client.publish({ destination, body: JSON.stringify(body), headers: { receipt: 'r-send' } });
  const refused = errors.next(5_000).then((m) => JSON.parse(m.body) as ChatErrorBody);
  const outcome = await Promise.race([stored, refused]);
  // Refused or not, the session is still connected.
  if (!client.connected) throw new Error('the session closed after the SEND');
  await client.deactivate();
  return outcome;
}

/** The students of the reports and moderation tests: a moderator, a seller and three reporters. */
export interface ReportingCampus {
  t: TestApp;
  mod: Student;
  seller: Student;
  r1: Student;
  r2: Student;
  r3: Student;
  /** The seller's listing everyone reports: "Too good to be true iPhone". */
  listing: Listing;
}

/** An app whose moderators are MOD_EMAIL (any case) and one more, with the students above. */
export async function reportingCampus(
  dialect: TestDialect,
  env: Record<string, string>,
): Promise<ReportingCampus> {
  const t = await createTestApp({
    dialect,
    env: { MODERATOR_EMAILS: `someone@msu.edu, ${MOD_EMAIL.toUpperCase()}`, ...env },
  });
  // Daytime on campus: notification e-mail is not held for the night.
  t.clock.nowMs = campusMorning(Date.now());
  const mod = await createStudent(t, { email: MOD_EMAIL, firstName: 'Mona' });
  const seller = await createStudent(t, { firstName: 'Sam' });
  const r1 = await createStudent(t);
  const r2 = await createStudent(t);
  const r3 = await createStudent(t);
  const listing = await postListing(t, seller, validFields({ name: 'Too good to be true iPhone' }));
  return { t, mod, seller, r1, r2, r3, listing };
}

/** A chat message from `sender` to `buyer` about `listingId`, written straight to the tables. */
export async function insertChatMessage(
  t: TestApp,
  sender: Student,
  buyer: Student,
  listingId: number,
  content: string,
): Promise<number> {
  const now = Date.now();
  const room = roomIdFor(sender.id, buyer.id);
  const db = t.app.ctx.db.kysely;
  await db
    .insertInto('chat_rooms')
    .values({
      id: room,
      low_user_id: Math.min(sender.id, buyer.id),
      high_user_id: Math.max(sender.id, buyer.id),
      buyer_id: buyer.id,
      seller_id: sender.id,
      listing_id: listingId,
      message_count: 1,
      created_at: now,
      last_activity_at: now,
      campus_id: sender.campusId,
    })
    .execute();
  const msg = await db
    .insertInto('chat_messages')
    .values({
      room_id: room,
      sender_id: sender.id,
      content,
      url: null,
      listing_id: listingId,
      sent_at: now,
      campus_id: sender.campusId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return msg.id;
}

/** Where `s` finds listing `id`: browse, search for "iphone", the filters page, and its detail's status. */
export async function visibleTo(t: TestApp, s: Student, id: number) {
  const browse = (await call(t, s, 'GET', '/listings')).json() as Listing[];
  const search = (await call(t, s, 'GET', '/listings/search?query=iphone')).json() as Listing[];
  const filters = (await call(t, s, 'GET', '/listings/filters?categories=ELECTRONICS')).json() as Listing[];
  return {
    browse: browse.some((l) => l.id === id),
    search: search.some((l) => l.id === id),
    filters: filters.some((l) => l.id === id),
    detail: (await call(t, s, 'GET', `/listing/${id}`)).statusCode,
  };
}
