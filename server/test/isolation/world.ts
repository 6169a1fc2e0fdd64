import { randomBytes } from 'node:crypto';
import type { Listing, Offer } from '@campus/contract';
import type { InjectOptions } from 'fastify';
import { inCampus } from '../../src/db/campus-scope.js';
import { makeJpeg, multipart, validFields } from '../../src/listings/testing.js';
import { browserKeys } from '../../src/notifications/testing.js';
import {
  TEST_CAMPUSES,
  TEST_CAMPUS_DOMAINS,
  asStudent,
  createStudent,
  createTestApp,
  type Student,
  type TestApp,
  type TestDialect,
} from '../helper.js';
import { overSocket } from '../socket-client.js';

/**
 * The world the isolation matrix runs in (features.md §E): one app serving msu and uw, and an msu
 * student who owns one of every campus-owned thing, built through the HTTP API as students build
 * it. Every msu name and text carries `marker`, every uw one `uwMarker`, so a list that shows
 * another campus's row is caught by a substring test whatever its shape.
 */
export interface World {
  t: TestApp;
  socket: ReturnType<typeof overSocket>;
  marker: string;
  uwMarker: string;
  /** In a saved search and a wanted post of the buyer's and the uw student's, and in both campuses' lamps. */
  bait: string;
  msu: {
    /** Owns a listing with a photo, a room with messages, a deal, a review, searches, wanted posts… */
    owner: Student;
    /** The other side of the owner's offers, meet-ups and deals. */
    buyer: Student;
    /** An msu student with no part in anything: the same-campus reader of public things. */
    stranger: Student;
    /** Blocked by the owner. */
    pest: Student;
    /** A moderator of msu only. */
    mod: Student;
  };
  uw: { student: Student; mod: Student };
  /** The owner's listing (with one photo), offered on by the buyer, saved by the buyer, reported. */
  listing: { id: number; photoId: number };
  offer: Offer;
  /** The buyer–owner room (the offer opened it). */
  roomId: string;
  /** A text message of the owner's in that room. */
  messageId: number;
  /** A listing of the owner's reserved for the buyer, with a meet-up the buyer proposed. */
  reserved: { listingId: number; offerId: number };
  meetupId: number;
  /** A deal (owner sold to buyer), both reviews given and so revealed. */
  dealId: number;
  reportId: number;
  searchId: number;
  wantedId: number;
  notificationId: number;
  pushEndpoint: string;
  uwListingId: number;
  /** A small JPEG for photo and avatar uploads. */
  jpeg: Buffer;
  close(): Promise<void>;
}

/** MSU gets a moderator of its own; uw keeps mod@uw.edu (server/test/campuses.ts). */
const CAMPUSES = TEST_CAMPUSES.map((c) => (c.slug === 'msu' ? { ...c, moderators: ['mod@msu.edu'] } : c));

export const MATRIX_ENV: Record<string, string> = {
  CAMPUSES: JSON.stringify(CAMPUSES),
  // Push endpoints on this machine (a closed port: nothing is ever delivered to them).
  PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
};

const HOUR = 3_600_000;

/** Ten lower-case letters: names take them, and no other text of the app holds them. */
const randomLetters = () => [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join('');

export function markerFor(prefix: string): string {
  return `${prefix}${randomLetters()}`;
}

/** A request as a student, JSON payloads as objects (multipart bodies carry their own headers). */
export function call(t: TestApp, who: Student, options: InjectOptions) {
  return asStudent(t, who, options);
}

/** The JSON answer of a call that must succeed with `status` (set-up: a failure stops the matrix). */
export async function must<T>(t: TestApp, who: Student, options: InjectOptions, status: number): Promise<T> {
  const res = await call(t, who, options);
  if (res.statusCode !== status) {
    throw new Error(`set-up ${options.method} ${options.url}: ${res.statusCode} ${res.body}`);
  }
  // Some answers are plain text ("New listing created"): only JSON is parsed.
  const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
  return (json ? res.json() : res.body) as T;
}

let jpeg: Promise<Buffer> | undefined;
export const photo = () => (jpeg ??= makeJpeg(320, 240));

/** Posts a listing through POST /listing (multipart) and answers it as GET /listings/self shows it. */
export async function postListing(
  t: TestApp,
  who: Student,
  name: string,
  withPhoto = false,
): Promise<Listing> {
  const form = multipart(
    validFields({ name, description: `${name}: works well, pick up on campus.`, category: 'ELECTRONICS' }),
    withPhoto ? [{ data: await photo() }] : [],
  );
  await must(t, who, { method: 'POST', url: '/listing', ...form }, 201);
  const [listing] = await must<Listing[]>(t, who, { method: 'GET', url: '/listings/self?limit=1' }, 200);
  if (!listing) throw new Error('set-up: the new listing is not in /listings/self');
  return listing;
}

export async function buildWorld(dialect: TestDialect): Promise<World> {
  const t = await createTestApp({ dialect, env: MATRIX_ENV, jobWorker: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const socket = overSocket(t);
  const marker = markerFor('Msu');
  const uwMarker = markerFor('Uw');
  const bait = markerFor('Bait');
  const msuStudent = (firstName: string, email?: string) =>
    createStudent(t, { firstName, lastName: marker, ...(email ? { email } : {}) });
  const uwStudent = (firstName: string, email?: string) =>
    createStudent(t, {
      firstName,
      lastName: uwMarker,
      domain: TEST_CAMPUS_DOMAINS.uw,
      ...(email ? { email } : {}),
    });
  const msu = {
    owner: await msuStudent('Maya'),
    buyer: await msuStudent('Ben'),
    stranger: await msuStudent('Tess'),
    pest: await msuStudent('Pat'),
    mod: await msuStudent('Mo', 'mod@msu.edu'),
  };
  const uw = { student: await uwStudent('Uma'), mod: await uwStudent('Una', 'mod@uw.edu') };
  const { owner, buyer } = msu;

  // A word both campuses' students look for, saved and wanted before either campus lists it:
  // matching must tell each student only of their own campus's listing.
  for (const who of [buyer, uw.student]) {
    await must(t, who, { method: 'POST', url: '/searches', payload: { query: bait } }, 201);
    await must(
      t,
      who,
      { method: 'POST', url: '/wanted', payload: { title: `${bait} lamp`, category: 'ELECTRONICS' } },
      201,
    );
  }

  const listing = await postListing(t, owner, `${marker} desk lamp ${bait}`, true);
  const photoId = listing.photos[0]?.id;
  if (photoId === undefined) throw new Error('set-up: the listing has no photo');
  const offer = await must<Offer>(
    t,
    buyer,
    { method: 'POST', url: `/listings/${listing.id}/offers`, payload: { amount: 12 } },
    201,
  );
  const messageId = await ownerSays(t, owner, offer.roomId, `${marker}: yes, it is still available`);
  await must(t, buyer, { method: 'PUT', url: `/listings/${listing.id}/save` }, 200);

  const reserved = await reserve(t, owner, buyer, `${marker} bookshelf`);
  const meetup = await must<{ id: number }>(
    t,
    buyer,
    { method: 'POST', url: '/meetups', payload: meetupBody(t, reserved.listingId, 2 * HOUR) },
    201,
  );
  const dealId = await completeDeal(t, owner, buyer, `${marker} monitor`);
  const review = (who: Student, stars: number) =>
    must(
      t,
      who,
      { method: 'POST', url: `/deals/${dealId}/review`, payload: { stars, text: `${marker} smooth` } },
      201,
    );
  await review(owner, 5);
  await review(buyer, 4);

  const report = await must<{ id: number }>(
    t,
    msu.stranger,
    {
      method: 'POST',
      url: '/reports',
      payload: {
        targetType: 'LISTING',
        targetId: listing.id,
        reason: 'SPAM',
        details: `${marker} looks off`,
      },
    },
    201,
  );
  const search = await must<{ id: number }>(
    t,
    owner,
    { method: 'POST', url: '/searches', payload: { query: marker } },
    201,
  );
  const wanted = await must<{ id: number }>(
    t,
    owner,
    { method: 'POST', url: '/wanted', payload: { title: `${marker} desk chair`, category: 'LIFESTYLE' } },
    201,
  );
  await must(t, owner, { method: 'PUT', url: `/users/${msu.pest.id}/block` }, 200);
  const removed = await postListing(t, owner, `${marker} removed poster`);
  await must(
    t,
    msu.mod,
    { method: 'POST', url: `/mod/listings/${removed.id}/remove`, payload: { reason: `${marker} spam` } },
    200,
  );

  // The uw side of every list: a listing, a wanted post, a saved search.
  const uwListing = await postListing(t, uw.student, `${uwMarker} desk lamp ${bait}`, true);
  await must(
    t,
    uw.student,
    { method: 'POST', url: '/wanted', payload: { title: `${uwMarker} desk chair`, category: 'LIFESTYLE' } },
    201,
  );
  await must(t, uw.student, { method: 'POST', url: '/searches', payload: { query: uwMarker } }, 201);
  // Moving out (features.md §H): the owner and the uw student each have a plan, so each campus's
  // moving-out feed holds its own lamp.
  const moveOutDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  for (const who of [owner, uw.student]) {
    await must(t, who, { method: 'PUT', url: '/users/me/move-out', payload: { date: moveOutDay } }, 200);
  }

  // Notifications, matches and mail are jobs: run them before anyone reads.
  await t.app.ctx.jobs.runDue();
  const page = await must<{ notifications: { id: number }[] }>(
    t,
    owner,
    { method: 'GET', url: '/notifications' },
    200,
  );
  const notificationId = page.notifications[0]?.id;
  if (notificationId === undefined) throw new Error('set-up: the owner has no notification');
  const pushEndpoint = await subscribePush(t, owner, marker);

  return {
    t,
    socket,
    marker,
    uwMarker,
    bait,
    msu,
    uw,
    listing: { id: listing.id, photoId },
    offer,
    roomId: offer.roomId,
    messageId,
    reserved,
    meetupId: meetup.id,
    dealId,
    reportId: report.id,
    searchId: search.id,
    wantedId: wanted.id,
    notificationId,
    pushEndpoint,
    uwListingId: uwListing.id,
    jpeg: await photo(),
    async close() {
      socket.agent.destroy();
      await t.close();
    },
  };
}

/** A meet-up body at a typed place (valid on every campus: a spot id is one campus's). */
export function meetupBody(t: TestApp, listingId: number, inMs: number, roomId?: string) {
  return {
    listingId,
    ...(roomId ? { roomId } : {}),
    place: 'Front steps of the library',
    startsAt: new Date(t.clock.now() + inMs).toISOString(),
  };
}

/**
 * A text message of the owner's. Written into the room directly: messages travel over STOMP,
 * whose frames do not run in a campus yet (the chat engineer's part), so SEND cannot file one.
 */
async function ownerSays(t: TestApp, owner: Student, roomId: string, content: string): Promise<number> {
  const row = await inCampus(owner.campusId, () =>
    t.app.ctx.db.kysely
      .insertInto('chat_messages')
      .values({
        room_id: roomId,
        sender_id: owner.id,
        content,
        url: null,
        listing_id: null,
        sent_at: t.clock.now(),
        kind: 'text',
        offer_id: null,
        meetup_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return Number(row.id);
}

/** A new listing of the seller's, reserved for the buyer: the buyer's $12 offer accepted. */
export async function reserve(t: TestApp, seller: Student, buyer: Student, name: string) {
  const listing = await postListing(t, seller, name);
  const offer = await must<Offer>(
    t,
    buyer,
    { method: 'POST', url: `/listings/${listing.id}/offers`, payload: { amount: 12 } },
    201,
  );
  await must(t, seller, { method: 'POST', url: `/offers/${offer.id}/accept` }, 200);
  return { listingId: listing.id, offerId: offer.id, roomId: offer.roomId };
}

/** The buyer's hand-off code for a reserved listing. */
export async function handoffCode(t: TestApp, buyer: Student, listingId: number): Promise<string> {
  const res = await must<{ code: string }>(
    t,
    buyer,
    { method: 'GET', url: `/listings/${listingId}/handoff` },
    200,
  );
  return res.code;
}

/** A confirmed deal: reserved, then handed off with the buyer's code. Answers the deal's id. */
export async function completeDeal(
  t: TestApp,
  seller: Student,
  buyer: Student,
  name: string,
): Promise<number> {
  const { listingId } = await reserve(t, seller, buyer, name);
  const code = await handoffCode(t, buyer, listingId);
  await must(t, seller, { method: 'POST', url: `/listings/${listingId}/handoff`, payload: { code } }, 200);
  const deals = await must<{ id: number; listingId: number }[]>(
    t,
    seller,
    { method: 'GET', url: '/deals' },
    200,
  );
  const deal = deals.find((d) => d.listingId === listingId);
  if (!deal) throw new Error('set-up: the deal is not in GET /deals');
  return deal.id;
}

/** A push subscription of the student's (a browser's keys, an endpoint on a closed local port). */
export async function subscribePush(t: TestApp, who: Student, name: string): Promise<string> {
  const keys = browserKeys();
  const endpoint = `http://127.0.0.1:9/push/${name}-${randomLetters()}`;
  await must(
    t,
    who,
    {
      method: 'POST',
      url: '/push/subscriptions',
      payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    },
    201,
  );
  return endpoint;
}

/** A new msu or uw student (for calls that change or end the caller's account). */
export function freshStudent(
  w: Pick<World, 't' | 'marker' | 'uwMarker'>,
  campus: 'msu' | 'uw',
): Promise<Student> {
  return campus === 'msu'
    ? createStudent(w.t, { lastName: w.marker })
    : createStudent(w.t, { lastName: w.uwMarker, domain: TEST_CAMPUS_DOMAINS.uw });
}
