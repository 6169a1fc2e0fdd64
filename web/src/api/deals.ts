import type { Deal, HandoffCode, Meetup, MeetupBody, Offer } from '@campus/contract';
import { api } from './client';

/**
 * Deals calls (features.md §A, docs/api.md "Deals"): offers, meet-ups, the hand-off code and the
 * reservation. Every change also arrives in the chat as a system message, which is what updates
 * the cards; these answers are only used for errors and the hand-off result.
 */

export const dealKeys = {
  all: ['deals'] as const,
  handoff: (listingId: number) => ['deals', 'handoff', listingId] as const,
};

/**
 * A buyer's offer; with `roomId`, the seller offers the listing to the other student of that chat;
 * with `holdUntil` (YYYY-MM-DD), held for fall (features.md §H).
 */
export function makeOffer(
  listingId: number,
  amount: string,
  options: { roomId?: string; holdUntil?: string } = {},
): Promise<Offer> {
  return api.post<Offer>(`/listings/${listingId}/offers`, {
    amount,
    ...(options.roomId ? { roomId: options.roomId } : {}),
    ...(options.holdUntil ? { holdUntil: options.holdUntil } : {}),
  });
}

/** POST /bundles: one offer for 2–10 listings of one seller (features.md §H). */
export function makeBundle(listingIds: readonly number[], amount: string): Promise<Offer> {
  return api.post<Offer>('/bundles', { listingIds, amount });
}

export type OfferAnswer = 'accept' | 'decline' | 'withdraw';

export function answerOffer(offerId: number, answer: OfferAnswer): Promise<Offer> {
  return api.post<Offer>(`/offers/${offerId}/${answer}`);
}

export function counterOffer(offerId: number, amount: string): Promise<Offer> {
  return api.post<Offer>(`/offers/${offerId}/counter`, { amount });
}

export function releaseReservation(listingId: number): Promise<{ id: number; status: 'AVAILABLE' }> {
  return api.post(`/listings/${listingId}/release`);
}

export function proposeMeetup(body: MeetupBody): Promise<Meetup> {
  return api.post<Meetup>('/meetups', body);
}

export type MeetupAnswer = 'accept' | 'decline' | 'cancel' | 'no-show';

export function answerMeetup(meetupId: number, answer: MeetupAnswer): Promise<Meetup> {
  return api.post<Meetup>(`/meetups/${meetupId}/${answer}`);
}

export function getHandoffCode(listingId: number, signal?: AbortSignal): Promise<HandoffCode> {
  return api.get<HandoffCode>(`/listings/${listingId}/handoff`, { signal });
}

export function confirmHandoff(listingId: number, code: string): Promise<{ deal: Deal }> {
  return api.post<{ deal: Deal }>(`/listings/${listingId}/handoff`, { code });
}

/**
 * GET /meetups/{id}.ics needs the bearer token, which a plain <a href> cannot carry: fetch it
 * through the API client (token, refresh and 401 handling included) and hand the browser a Blob.
 */
export async function downloadMeetupIcs(meetupId: number): Promise<void> {
  const text = await api.get<string>(`/meetups/${meetupId}.ics`, { headers: { Accept: 'text/calendar' } });
  const blob = new Blob([text], { type: 'text/calendar;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `campus-market-meetup-${meetupId}.ics`;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled, so the download has started.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
