import { freshListing, freshMeetup, freshOffer, freshReserved } from './fresh.js';
import { NONE, NONE2, NO_ROOM, byId, type ByIdScenario, type CaseTable, type Ids } from './matrix.js';
import { handoffCode, meetupBody, must, type World } from './world.js';

const MINUTE = 60_000;

/** An action on the buyer's PENDING offer (on a new listing), by the side that did not make it. */
const onOffer = (
  action: string,
  party: (w: World) => World['msu']['owner'],
  success: number,
  payload?: object,
): ByIdScenario => ({
  name: 'a pending offer',
  party,
  ids: async (w) => ({ offer: (await freshOffer(w)).id }),
  unknown: { offer: NONE },
  request: (ids) => ({
    method: 'POST',
    url: `/offers/${ids.offer}/${action}`,
    ...(payload ? { payload } : {}),
  }),
  success,
});

/** An action on a meet-up the buyer proposed (on a new reserved listing). */
const onMeetup = (
  action: string,
  party: (w: World) => World['msu']['owner'],
  ids?: (w: World) => Promise<Ids>,
) =>
  byId({
    name: 'a meet-up',
    party,
    ids: ids ?? (async (w) => ({ meetup: await freshMeetup(w) })),
    unknown: { meetup: NONE },
    request: (i) => ({ method: 'POST', url: `/meetups/${i.meetup}/${action}` }),
    success: 200,
  });

/** Offers, meet-ups and hand-off. */
export const dealsCases: CaseTable = {
  'POST /listings/:id/offers': byId({
    name: 'a listing',
    party: (w) => w.msu.stranger,
    ids: async (w) => ({ listing: (await freshListing(w)).id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'POST', url: `/listings/${ids.listing}/offers`, payload: { amount: 10 } }),
    success: 201,
  }),
  // features.md §H: a bundle of two new listings of the owner, offered by a stranger.
  'POST /bundles': byId({
    name: 'two listings of one seller',
    party: (w) => w.msu.stranger,
    ids: async (w) => ({ first: (await freshListing(w)).id, second: (await freshListing(w)).id }),
    unknown: { first: NONE, second: NONE2 },
    request: (ids) => ({
      method: 'POST',
      url: '/bundles',
      payload: { listingIds: [ids.first, ids.second], amount: 20 },
    }),
    success: 201,
  }),
  'GET /listings/:id/offers': byId({
    name: 'a listing with an offer',
    party: (w) => w.msu.owner,
    ids: (w) => ({ listing: w.listing.id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'GET', url: `/listings/${ids.listing}/offers` }),
    success: 200,
  }),
  'POST /offers/:id/accept': byId(onOffer('accept', (w) => w.msu.owner, 200)),
  'POST /offers/:id/decline': byId(onOffer('decline', (w) => w.msu.owner, 200)),
  'POST /offers/:id/counter': byId(onOffer('counter', (w) => w.msu.owner, 201, { amount: 11 })),
  'POST /offers/:id/withdraw': byId(onOffer('withdraw', (w) => w.msu.buyer, 200)),
  'POST /listings/:id/release': byId({
    name: 'a reserved listing',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ listing: (await freshReserved(w)).listingId }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'POST', url: `/listings/${ids.listing}/release` }),
    success: 200,
  }),

  'POST /meetups': byId({
    name: 'a reserved listing and its room',
    party: (w) => w.msu.buyer,
    ids: async (w) => {
      const reserved = await freshReserved(w);
      return { listing: reserved.listingId, room: reserved.roomId };
    },
    unknown: { listing: NONE, room: NO_ROOM },
    request: (ids, w) => ({
      method: 'POST',
      url: '/meetups',
      payload: meetupBody(w.t, Number(ids.listing), 2 * 3_600_000, String(ids.room)),
    }),
    success: 201,
  }),
  'POST /meetups/:id/accept': onMeetup('accept', (w) => w.msu.owner),
  'POST /meetups/:id/decline': onMeetup('decline', (w) => w.msu.owner),
  'POST /meetups/:id/cancel': onMeetup('cancel', (w) => w.msu.buyer),
  // A CONFIRMED meet-up 20 minutes past its start: the buyer may report the owner absent.
  'POST /meetups/:id/no-show': onMeetup(
    'no-show',
    (w) => w.msu.buyer,
    async (w) => {
      const meetup = await freshMeetup(w, 20 * MINUTE);
      await must(w.t, w.msu.owner, { method: 'POST', url: `/meetups/${meetup}/accept` }, 200);
      w.t.clock.advance(40 * MINUTE);
      return { meetup };
    },
  ),
  'GET /meetups/:id.ics': byId({
    name: 'a meet-up',
    party: (w) => w.msu.buyer,
    ids: (w) => ({ meetup: w.meetupId }),
    unknown: { meetup: NONE },
    request: (ids) => ({ method: 'GET', url: `/meetups/${ids.meetup}.ics` }),
    success: 200,
  }),

  'GET /listings/:id/handoff': byId({
    name: 'a reserved listing',
    party: (w) => w.msu.buyer,
    ids: (w) => ({ listing: w.reserved.listingId }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'GET', url: `/listings/${ids.listing}/handoff` }),
    success: 200,
  }),
  'POST /listings/:id/handoff': byId({
    name: "a reserved listing and the buyer's code",
    party: (w) => w.msu.owner,
    ids: async (w) => {
      const { listingId } = await freshReserved(w);
      return { listing: listingId, code: await handoffCode(w.t, w.msu.buyer, listingId) };
    },
    unknown: { listing: NONE, code: '0000' },
    request: (ids) => ({
      method: 'POST',
      url: `/listings/${ids.listing}/handoff`,
      payload: { code: String(ids.code) },
    }),
    success: 200,
  }),
};
