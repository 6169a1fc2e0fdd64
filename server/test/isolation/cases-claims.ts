import type { Claim, Listing } from '@campus/contract';
import { multipart, validFields } from '../../src/listings/testing.js';
import { NONE, byId, type CaseTable, type Ids } from './matrix.js';
import { must, type World } from './world.js';

const HOUR = 3_600_000;
let seq = 0;

/** A new free item of the owner's (claims open for an hour). */
async function freshFreeItem(w: World): Promise<Listing> {
  const form = multipart(
    validFields({ name: `${w.marker} free ${++seq}`, price: '', free: 'true', claimWindowHours: '1' }),
  );
  await must(w.t, w.msu.owner, { method: 'POST', url: '/listing', ...form }, 201);
  const [listing] = await must<Listing[]>(
    w.t,
    w.msu.owner,
    { method: 'GET', url: '/listings/self?limit=1' },
    200,
  );
  return listing!;
}

/** A free item the buyer claimed; `closed` moves the clock past its window. */
async function freshClaim(w: World, closed = false): Promise<{ listing: number; claim: number }> {
  const listing = await freshFreeItem(w);
  const claim = await must<Claim>(
    w.t,
    w.msu.buyer,
    { method: 'POST', url: `/listings/${listing.id}/claims`, payload: { note: 'mine?' } },
    201,
  );
  if (closed) w.t.clock.advance(HOUR);
  return { listing: listing.id, claim: claim.id };
}

/** A decided giveaway (the owner chose the buyer's claim). */
async function freshDecided(w: World): Promise<Ids> {
  const ids = await freshClaim(w, true);
  await must(w.t, w.msu.owner, { method: 'POST', url: `/claims/${ids.claim}/choose` }, 200);
  return { listing: ids.listing };
}

/** Claims on free items (features.md §H). */
export const claimsCases: CaseTable = {
  'POST /listings/:id/claims': byId({
    name: 'a free item',
    party: (w) => w.msu.stranger,
    ids: async (w) => ({ listing: (await freshFreeItem(w)).id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'POST', url: `/listings/${ids.listing}/claims`, payload: { note: 'hi' } }),
    success: 201,
  }),
  'GET /listings/:id/claims': byId({
    name: 'a free item with a claim',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ listing: (await freshClaim(w)).listing }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'GET', url: `/listings/${ids.listing}/claims` }),
    success: 200,
  }),
  'DELETE /listings/:id/claims/mine': byId({
    name: "the buyer's claim",
    party: (w) => w.msu.buyer,
    ids: async (w) => ({ listing: (await freshClaim(w)).listing }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'DELETE', url: `/listings/${ids.listing}/claims/mine` }),
    success: 200,
  }),
  'POST /claims/:id/choose': byId({
    name: 'a claim after the window',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ claim: (await freshClaim(w, true)).claim }),
    unknown: { claim: NONE },
    request: (ids) => ({ method: 'POST', url: `/claims/${ids.claim}/choose` }),
    success: 200,
  }),
  'POST /listings/:id/claims/draw': byId({
    name: 'a free item after the window',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ listing: (await freshClaim(w, true)).listing }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'POST', url: `/listings/${ids.listing}/claims/draw` }),
    success: 200,
  }),
  'GET /listings/:id/claims/draw': byId({
    name: 'a decided giveaway',
    party: (w) => w.msu.buyer,
    ids: freshDecided,
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'GET', url: `/listings/${ids.listing}/claims/draw` }),
    success: 200,
  }),
};
