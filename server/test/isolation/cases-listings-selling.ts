import { multipart, validFields } from '../../src/listings/testing.js';
import { freshListing, freshSearch, freshWanted, markerOf } from './fresh.js';
import {
  NONE,
  NONE2,
  because,
  byId,
  list,
  own,
  type ByIdScenario,
  type CaseTable,
  type Call,
} from './matrix.js';
import type { World } from './world.js';

/** The owner acting on a listing of theirs: the world's, or a new one when the call uses it up. */
const onListing = (request: (listing: number) => Call, success: number, fresh: boolean): ByIdScenario => ({
  name: 'a listing',
  party: (w) => w.msu.owner,
  ids: async (w) => ({ listing: fresh ? (await freshListing(w)).id : w.listing.id }),
  unknown: { listing: NONE },
  request: (ids) => request(Number(ids.listing)),
  success,
});

const newListing = (url: string) =>
  own({
    request: (w, who) => ({
      method: 'POST',
      url,
      ...multipart(validFields({ name: `${markerOf(w, who)} own lamp` })),
    }),
    success: 201,
  });

const photoPart = (w: World) => multipart({}, [{ data: w.jpeg }]);

/** Listings (browse, search, one listing, edits, photos) and selling (saves, searches, wanted). */
export const listingsAndSellingCases: CaseTable = {
  'POST /listing': newListing('/listing'),
  'POST /listing/new': newListing('/listing/new'),
  'GET /listings': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings' }),
  }),
  'GET /listings/recent': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings/recent' }),
  }),
  'GET /listings/self': list({
    party: (w) => w.msu.owner,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings/self' }),
  }),
  'GET /listings/filters': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings/filters?categories=ELECTRONICS&sort=price_asc' }),
  }),
  // Course codes and counts, no row of a listing: listings/courses.test.ts posts books with the same
  // course on both campuses and checks each sees only its own codes and counts, on both databases.
  'GET /public/listings/:id/preview': because(
    "A shared link's preview (name, price, cover, campus; never the seller): public by design, and only at the listing's own campus's address (another campus's address answers 404 like an unknown id, server/src/share/share.test.ts)",
  ),
  'GET /listings/courses': because(
    "Course codes with counts of the caller's campus only (listings/courses.test.ts)",
  ),
  'GET /listings/search': list({
    party: (w) => w.msu.stranger,
    request: (w) => ({ method: 'GET', url: `/listings/search?q=${w.marker}` }),
  }),
  'GET /listings/:category': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings/ELECTRONICS' }),
  }),
  'GET /listing/:id': byId({
    name: 'a listing',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ listing: w.listing.id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'GET', url: `/listing/${ids.listing}` }),
    success: 200,
  }),
  'PATCH /listing/:id': byId(
    onListing(
      (id) => ({ method: 'PATCH', url: `/listing/${id}`, payload: { description: 'Edited: still works.' } }),
      200,
      false,
    ),
  ),
  'POST /listing/:id/photos': byId({
    name: 'a listing',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ listing: (await freshListing(w)).id }),
    unknown: { listing: NONE },
    request: (ids, w) => ({ method: 'POST', url: `/listing/${ids.listing}/photos`, ...photoPart(w) }),
    success: 201,
  }),
  'DELETE /listing/:id/photos/:photoId': byId({
    name: 'a photo of a listing',
    party: (w) => w.msu.owner,
    ids: async (w) => {
      const listing = await freshListing(w, true);
      return { listing: listing.id, photo: listing.photos[0]!.id };
    },
    unknown: { listing: NONE, photo: NONE2 },
    request: (ids) => ({ method: 'DELETE', url: `/listing/${ids.listing}/photos/${ids.photo}` }),
    success: 200,
  }),
  'PUT /listing/:id/photos/order': byId({
    name: 'the photos of a listing',
    party: (w) => w.msu.owner,
    ids: (w) => ({ listing: w.listing.id, photo: w.listing.photoId }),
    unknown: { listing: NONE, photo: NONE2 },
    request: (ids) => ({
      method: 'PUT',
      url: `/listing/${ids.listing}/photos/order`,
      payload: { photoIds: [Number(ids.photo)] },
    }),
    success: 200,
  }),
  'PUT /listings/sold/:id': byId(
    onListing((id) => ({ method: 'PUT', url: `/listings/sold/${id}` }), 200, true),
  ),
  'DELETE /listing/:id': byId(onListing((id) => ({ method: 'DELETE', url: `/listing/${id}` }), 200, true)),
  // Freshness and the price guide (features.md §H).
  'POST /listing/:id/renew': byId(
    onListing((id) => ({ method: 'POST', url: `/listing/${id}/renew` }), 200, false),
  ),
  'GET /listings/price-guide': because(
    "An aggregate of the caller's campus's deals (no rows, no ids): deals/price-guide.test.ts shows another campus's deals never count",
  ),

  'PUT /listings/:id/save': byId({
    name: 'a listing',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ listing: w.listing.id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'PUT', url: `/listings/${ids.listing}/save` }),
    success: 200,
  }),
  'DELETE /listings/:id/save': byId({
    name: 'a listing',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ listing: w.listing.id }),
    unknown: { listing: NONE },
    request: (ids) => ({ method: 'DELETE', url: `/listings/${ids.listing}/save` }),
    success: 200,
  }),
  'GET /listings/saved': list({
    party: (w) => w.msu.buyer,
    request: () => ({ method: 'GET', url: '/listings/saved' }),
  }),
  'POST /searches': own({
    request: (w, who) => ({
      method: 'POST',
      url: '/searches',
      payload: { query: `${markerOf(w, who)} chair` },
    }),
    success: 201,
  }),
  'GET /searches': list({
    party: (w) => w.msu.owner,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/searches' }),
  }),
  'DELETE /searches/:id': byId({
    name: 'a saved search',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ search: await freshSearch(w) }),
    unknown: { search: NONE },
    request: (ids) => ({ method: 'DELETE', url: `/searches/${ids.search}` }),
    success: 200,
  }),
  'POST /wanted': own({
    request: (w, who) => ({
      method: 'POST',
      url: '/wanted',
      payload: { title: `${markerOf(w, who)} lamp`, category: 'ELECTRONICS' },
    }),
    success: 201,
  }),
  'GET /wanted': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/wanted' }),
  }),
  'GET /wanted/self': list({
    party: (w) => w.msu.owner,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/wanted/self' }),
  }),
  'DELETE /wanted/:id': byId({
    name: 'a wanted post',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ wanted: await freshWanted(w) }),
    unknown: { wanted: NONE },
    request: (ids) => ({ method: 'DELETE', url: `/wanted/${ids.wanted}` }),
    success: 200,
  }),
};
