import type { Listing, Offer } from '@campus/contract';
import type { Student } from '../helper.js';
import { completeDeal, freshStudent, meetupBody, must, postListing, reserve, type World } from './world.js';

/**
 * New msu things for the cases whose call changes or uses up what it names (accepting an offer,
 * deleting a listing…), so each case starts from the same state whatever ran before it.
 */
let seq = 0;
const name = (w: World, what: string) => `${w.marker} ${what} ${++seq}`;

export const freshListing = (w: World, withPhoto = false): Promise<Listing> =>
  postListing(w.t, w.msu.owner, name(w, 'item'), withPhoto);

/** The buyer's PENDING $12 offer on a new listing of the owner's. */
export async function freshOffer(w: World): Promise<Offer> {
  const listing = await freshListing(w);
  return must<Offer>(
    w.t,
    w.msu.buyer,
    { method: 'POST', url: `/listings/${listing.id}/offers`, payload: { amount: 12 } },
    201,
  );
}

export const freshReserved = (w: World) => reserve(w.t, w.msu.owner, w.msu.buyer, name(w, 'reserved'));

/** A meet-up the buyer proposed on a new reserved listing, starting `inMs` from now. */
export async function freshMeetup(w: World, inMs = 2 * 3_600_000): Promise<number> {
  const { listingId } = await freshReserved(w);
  const meetup = await must<{ id: number }>(
    w.t,
    w.msu.buyer,
    { method: 'POST', url: '/meetups', payload: meetupBody(w.t, listingId, inMs) },
    201,
  );
  return meetup.id;
}

export const freshDeal = (w: World) => completeDeal(w.t, w.msu.owner, w.msu.buyer, name(w, 'sold'));

/** The stranger's open report of a new listing of the owner's. */
export async function freshReport(w: World): Promise<number> {
  const listing = await freshListing(w);
  const report = await must<{ id: number }>(
    w.t,
    w.msu.stranger,
    {
      method: 'POST',
      url: '/reports',
      payload: { targetType: 'LISTING', targetId: listing.id, reason: 'SPAM' },
    },
    201,
  );
  return report.id;
}

export async function freshSearch(w: World): Promise<number> {
  const search = await must<{ id: number }>(
    w.t,
    w.msu.owner,
    { method: 'POST', url: '/searches', payload: { query: name(w, 'search') } },
    201,
  );
  return search.id;
}

export async function freshWanted(w: World): Promise<number> {
  const wanted = await must<{ id: number }>(
    w.t,
    w.msu.owner,
    { method: 'POST', url: '/wanted', payload: { title: name(w, 'wanted'), category: 'BOOKS' } },
    201,
  );
  return wanted.id;
}

/** A new msu student, for cases that block, report or suspend someone. */
export const freshMsuStudent = (w: World): Promise<Student> => freshStudent(w, 'msu');

/** A fresh student of each campus, for calls that change or end the caller's own account. */
export async function freshCallers(w: World): Promise<{ party: Student; outsider: Student }> {
  return { party: await freshStudent(w, 'msu'), outsider: await freshStudent(w, 'uw') };
}

/** The marker of the caller's campus, for rows the caller writes. */
export const markerOf = (w: World, who: Student) =>
  who.campusId === w.msu.owner.campusId ? w.marker : w.uwMarker;
