import {
  CLAIM_EVENTS,
  DEALS_DURATIONS_MS,
  DEALS_MESSAGES,
  DEAL_EVENTS,
  meetupBodySchema,
  parseRoomId,
  roomIdFor,
  type Meetup,
} from '@campus/contract';
import { createEvent } from 'ics';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { badRequest, conflict, forbidden, notFound, parseOr400 } from '../http/errors.js';
import { assertNotBlocked, scamFlags } from '../safety/index.js';
import { assertMeetupWindow } from './hold.js';
import type { OffersService } from './offers.js';
import * as store from './store.js';
import { DealsTx, inDealsTx, type DealsDeps } from './tx.js';

/** Meet-ups (features.md §A "Meet-ups" and "No-shows"). */
export class MeetupsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: DealsDeps,
    private readonly offers: OffersService,
  ) {}

  private run<T>(fn: (tx: DealsTx) => Promise<T>): Promise<T> {
    return inDealsTx(this.ctx, this.deps, fn);
  }

  /** The meet-up spots of the campus the work is for (the student's). */
  private spots() {
    return this.ctx.campuses.byId(requireCampusId()).meetupSpots;
  }

  private async name(tx: DealsTx, userId: number): Promise<string> {
    return (await store.firstNames(tx.db, [userId])).get(userId) ?? 'Someone';
  }

  /** The meet-up and its listing (locked) for one of its two students; 404 / 403 otherwise. */
  private async meetupFor(tx: DealsTx, userId: number, meetupId: number) {
    const first = await store.findMeetup(tx.db, meetupId);
    if (!first) throw notFound(DEALS_MESSAGES.meetupNotFound);
    // The listing first: one a moderator removed is gone for everyone, its meet-ups included.
    const listing = await store.lockListing(tx.db, first.listing_id, tx.postgres);
    if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
    const pair = parseRoomId(first.room_id);
    if (!pair || !pair.includes(userId)) throw forbidden(DEALS_MESSAGES.meetupNotYours);
    const meetup = (await store.findMeetup(tx.db, meetupId))!;
    const buyerId = pair[0] === listing.seller_id ? pair[1] : pair[0];
    await assertNotBlocked(this.ctx, buyerId, listing.seller_id, tx.db);
    return { meetup, listing, topic: DealsTx.topic(listing.id, listing.seller_id, buyerId) };
  }

  /** POST /meetups: either student of a chat about the listing proposes a place and a time. */
  propose(userId: number, body: unknown): Promise<Meetup> {
    const input = parseOr400(meetupBodySchema, body);
    const startsAt = Date.parse(input.startsAt);
    let where: { spotId: string | null; place: string };
    if (input.spotId) {
      // The campus's own spots (features.md §E): another campus's spot id is an unknown one.
      const spot = this.spots().find((s) => s.id === input.spotId);
      if (!spot) throw badRequest(DEALS_MESSAGES.meetupSpotUnknown);
      where = { spotId: spot.id, place: spot.name };
    } else {
      where = { spotId: null, place: input.place! };
    }
    return this.run(async (tx) => {
      if (startsAt < tx.now + DEALS_DURATIONS_MS.meetupMinLead)
        throw badRequest(DEALS_MESSAGES.meetupTooSoon);
      if (startsAt > tx.now + DEALS_DURATIONS_MS.meetupMaxAhead)
        throw badRequest(DEALS_MESSAGES.meetupTooFar);
      const listing = await this.reservationListing(
        tx,
        await store.lockListing(tx.db, input.listingId, tx.postgres),
      );
      if (!listing) throw notFound(DEALS_MESSAGES.listingNotFound);
      const roomId = this.roomFor(userId, listing, input.roomId);
      const pair = parseRoomId(roomId);
      if (!pair || !pair.includes(userId) || !pair.includes(listing.seller_id) || pair[0] === pair[1]) {
        throw forbidden(DEALS_MESSAGES.meetupNoRoom);
      }
      const earlier = await tx.roomMessageCount(roomId);
      if (earlier === undefined) throw forbidden(DEALS_MESSAGES.meetupNoRoom);
      await assertNotBlocked(this.ctx, pair[0], pair[1], tx.db);
      if (listing.status === 'SOLD') throw conflict(DEALS_MESSAGES.meetupListingSold);
      const open = await tx.db
        .selectFrom('meetups')
        .select('id')
        .where('room_id', '=', roomId)
        .where('listing_id', '=', listing.id)
        .where('status', 'in', ['PROPOSED', 'CONFIRMED'])
        .executeTakeFirst();
      if (open) throw conflict(DEALS_MESSAGES.meetupOpenExists);
      await assertMeetupWindow(this.ctx, tx, listing, roomId);
      const buyerId = pair[0] === listing.seller_id ? pair[1] : pair[0];
      const meetup = await tx.db
        .insertInto('meetups')
        .values({
          listing_id: listing.id,
          room_id: roomId,
          proposer_id: userId,
          spot_id: where.spotId,
          place: where.place,
          starts_at: startsAt,
          status: 'PROPOSED',
          created_at: tx.now,
          updated_at: tx.now,
          reported_user_id: null,
          reported_by_id: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await tx.post(
        DealsTx.topic(listing.id, listing.seller_id, buyerId),
        {
          senderId: userId,
          kind: 'meetup',
          content: DEAL_EVENTS.meetupProposed(await this.name(tx, userId), where.place),
          // A typed place reaches the other student like a message, so the anti-scam guard reads
          // it too (a campus spot is the app's own text). Flags warn; nothing is refused.
          flags: where.spotId === null ? scamFlags(where.place, earlier) : [],
        },
        { meetup },
        'MEETUP_PROPOSED',
      );
      return store.toMeetup(meetup);
    });
  }

  /**
   * The listing a meet-up is filed under: a bundle's reservation has one meet-up, under its first
   * listing, whichever of its listings it is proposed for (docs/decisions.md "Bundles").
   */
  private async reservationListing(
    tx: DealsTx,
    listing: store.DealListing | undefined,
  ): Promise<store.DealListing | undefined> {
    if (!listing || listing.status !== 'RESERVED' || listing.accepted_offer_id === null) return listing;
    const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
    if (!offer || offer.listing_id === listing.id) return listing;
    return (await store.lockListing(tx.db, offer.listing_id, tx.postgres)) ?? listing;
  }

  /** A buyer's chat with the seller; a seller's chat with the reserved buyer unless named. */
  private roomFor(userId: number, listing: store.DealListing, roomId: string | undefined): string {
    if (roomId) return roomId;
    if (userId !== listing.seller_id) return roomIdFor(userId, listing.seller_id);
    if (listing.status === 'RESERVED' && listing.reserved_buyer_id !== null) {
      return roomIdFor(userId, listing.reserved_buyer_id);
    }
    throw badRequest(DEALS_MESSAGES.meetupRoomRequired);
  }

  private async setStatus(
    tx: DealsTx,
    meetup: store.MeetupRow,
    from: readonly store.MeetupRow['status'][],
    set: { status: store.MeetupRow['status']; reported_user_id?: number; reported_by_id?: number },
  ) {
    const row = await tx.db
      .updateTable('meetups')
      .set({ ...set, updated_at: tx.now })
      .where('id', '=', meetup.id)
      .where('status', 'in', [...from])
      .returningAll()
      .executeTakeFirst();
    if (!row) throw conflict(DEALS_MESSAGES.meetupNotOpen);
    return row;
  }

  /** POST /meetups/{id}/accept or /decline: the student who did not propose it. */
  answer(userId: number, meetupId: number, accept: boolean): Promise<Meetup> {
    return this.run(async (tx) => {
      const { meetup, listing, topic } = await this.meetupFor(tx, userId, meetupId);
      if (meetup.status !== 'PROPOSED') throw conflict(DEALS_MESSAGES.meetupNotProposed);
      if (meetup.proposer_id === userId) throw forbidden(DEALS_MESSAGES.meetupOwnAnswer);
      if (accept && listing.status === 'SOLD') throw conflict(DEALS_MESSAGES.meetupListingSold);
      const row = await this.setStatus(tx, meetup, ['PROPOSED'], {
        status: accept ? 'CONFIRMED' : 'DECLINED',
      });
      const actor = await this.name(tx, userId);
      if (accept && listing.status === 'RESERVED' && listing.accepted_offer_id !== null) {
        const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
        // The reservation now lapses 48 h after this meet-up instead of 72 h after acceptance.
        if (offer && offer.room_id === meetup.room_id) {
          await this.offers.scheduleLapseCheck(tx, offer.id, await this.offers.lapseDeadline(tx, offer));
        }
      }
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'system',
          content: accept
            ? DEAL_EVENTS.meetupAccepted(actor, meetup.place)
            : DEAL_EVENTS.meetupDeclined(actor),
        },
        { meetup: row },
        'MEETUP_ANSWERED',
      );
      return store.toMeetup(row);
    });
  }

  /** POST /meetups/{id}/cancel: either student, while it is open. */
  cancel(userId: number, meetupId: number): Promise<Meetup> {
    return this.run(async (tx) => {
      const { meetup, topic } = await this.meetupFor(tx, userId, meetupId);
      if (meetup.status !== 'PROPOSED' && meetup.status !== 'CONFIRMED')
        throw conflict(DEALS_MESSAGES.meetupNotOpen);
      const row = await this.setStatus(tx, meetup, ['PROPOSED', 'CONFIRMED'], { status: 'CANCELLED' });
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.meetupCancelled(await this.name(tx, userId)),
        },
        { meetup: row },
        'MEETUP_ANSWERED',
      );
      return store.toMeetup(row);
    });
  }

  /**
   * POST /meetups/{id}/no-show: from 15 minutes to 48 h after a CONFIRMED meet-up's time, with no
   * deal confirmed, either student reports the other as absent (reliability counts it).
   */
  noShow(userId: number, meetupId: number): Promise<Meetup> {
    return this.run(async (tx) => {
      const { meetup, topic, listing } = await this.meetupFor(tx, userId, meetupId);
      if (meetup.status === 'DONE') throw conflict(DEALS_MESSAGES.noShowDealDone);
      if (meetup.status !== 'CONFIRMED') throw conflict(DEALS_MESSAGES.noShowNotConfirmed);
      const startsAt = Number(meetup.starts_at);
      if (tx.now < startsAt + DEALS_DURATIONS_MS.noShowAfter) throw conflict(DEALS_MESSAGES.noShowTooEarly);
      if (tx.now > startsAt + DEALS_DURATIONS_MS.noShowWindow) throw conflict(DEALS_MESSAGES.noShowTooLate);
      const absent = topic.buyerId === userId ? topic.sellerId : topic.buyerId;
      const row = await this.setStatus(tx, meetup, ['CONFIRMED'], {
        status: 'NO_SHOW',
        reported_user_id: absent,
        reported_by_id: userId,
      });
      const names = await store.firstNames(tx.db, [userId, absent]);
      await tx.post(
        topic,
        {
          senderId: userId,
          kind: 'system',
          content: DEAL_EVENTS.meetupNoShow(
            names.get(userId) ?? 'Someone',
            names.get(absent) ?? 'the other student',
          ),
        },
        { meetup: row },
        'MEETUP_ANSWERED',
      );
      await this.passOnMissedPickup(tx, listing, userId, absent);
      return store.toMeetup(row);
    });
  }

  /**
   * A free item's giver reported the claimant absent from the pickup: the pickup ends now and the
   * item passes to the next claimant in line (features.md §H). A claimant reporting the giver
   * absent ends nothing: the pickup stands until it lapses, so the claimant may still get it.
   */
  private async passOnMissedPickup(
    tx: DealsTx,
    listing: store.DealListing,
    reporterId: number,
    absentId: number,
  ): Promise<void> {
    if (reporterId !== listing.seller_id || listing.status !== 'RESERVED') return;
    if (listing.reserved_buyer_id !== absentId || listing.accepted_offer_id === null) return;
    const offer = await store.findOffer(tx.db, listing.accepted_offer_id);
    if (offer?.claim_id === null || offer === undefined) return;
    await this.offers.endReservation(
      tx,
      listing,
      'EXPIRED',
      { senderId: 0, content: CLAIM_EVENTS.pickupMissed() },
      'NO_SHOW',
    );
  }

  /**
   * GET /meetups/{id}.ics: an RFC 5545 event for either student. Times are in UTC (calendars show
   * them in the reader's zone), so the campus's time zone is not needed here.
   */
  async ics(userId: number, meetupId: number): Promise<string> {
    const db = this.ctx.db.kysely;
    const meetup = await store.findMeetup(db, meetupId);
    if (!meetup) throw notFound(DEALS_MESSAGES.meetupNotFound);
    const pair = parseRoomId(meetup.room_id);
    if (!pair || !pair.includes(userId)) throw forbidden(DEALS_MESSAGES.meetupNotYours);
    const listing = await store.findListing(db, meetup.listing_id);
    const spot = meetup.spot_id ? this.spots().find((s) => s.id === meetup.spot_id) : undefined;
    const host = new URL(this.ctx.config.publicUrl).hostname;
    const startsAt = Number(meetup.starts_at);
    const { error, value } = createEvent({
      productId: 'campus-market/meetups',
      uid: `meetup-${meetup.id}@${host}`,
      // DTSTAMP is written by the library; LAST-MODIFIED and SEQUENCE let calendars take the newest.
      created: Number(meetup.created_at),
      lastModified: Number(meetup.updated_at),
      sequence: Math.max(0, Math.floor((Number(meetup.updated_at) - Number(meetup.created_at)) / 1000)),
      start: startsAt,
      startInputType: 'utc',
      startOutputType: 'utc',
      end: startsAt + DEALS_DURATIONS_MS.meetupDuration,
      endInputType: 'utc',
      endOutputType: 'utc',
      title: `Campus Market meet-up: ${listing?.name ?? 'your deal'}`,
      location: meetup.place,
      description: [
        spot?.description,
        'Meet in a public place. The buyer shows the 4-digit hand-off code; the seller types it in the chat.',
      ]
        .filter(Boolean)
        .join('\n'),
      url: `${this.ctx.config.publicUrl}/chat`,
      // A reminder an hour before, so the meet-up is not missed (calendars may let the student change it).
      alarms: [
        {
          action: 'display',
          description: `Meet-up in 1 hour at ${meetup.place}`,
          trigger: { hours: 1, minutes: 0, before: true },
        },
      ],
      status:
        meetup.status === 'PROPOSED'
          ? 'TENTATIVE'
          : meetup.status === 'CANCELLED' || meetup.status === 'DECLINED'
            ? 'CANCELLED'
            : 'CONFIRMED',
    });
    if (error || !value) throw error ?? new Error('ics: no calendar produced');
    return value;
  }
}
