import { multipart } from '../../src/listings/testing.js';
import { freshCallers, freshDeal, freshListing, freshMsuStudent, freshReport } from './fresh.js';
import { NONE, byId, list, own, type ByIdScenario, type CaseTable, type Ids } from './matrix.js';
import { must, type World } from './world.js';

const msuMod = (w: World) => w.msu.mod;
const uwMod = (w: World) => w.uw.mod;

/** A report of an msu thing of each kind. */
const report = (
  targetType: 'LISTING' | 'USER' | 'MESSAGE',
  party: (w: World) => World['msu']['owner'],
  ids: (w: World) => Promise<Ids> | Ids,
): ByIdScenario => ({
  name: `a report of a ${targetType.toLowerCase()}`,
  party,
  ids,
  unknown: { target: NONE },
  request: (i) => ({
    method: 'POST',
    url: '/reports',
    payload: {
      targetType,
      targetId: Number(i.target),
      reason: 'HARASSMENT',
      details: 'Please look at this.',
    },
  }),
  success: 201,
});

/** A moderator's action on an msu thing: msu's moderator may, uw's gets what an unknown id gets. */
const modAction = (
  name: string,
  path: (id: number) => string,
  ids: (w: World) => Promise<number>,
  payload: object,
): ByIdScenario => ({
  name,
  party: msuMod,
  outsider: uwMod,
  ids: async (w) => ({ target: await ids(w) }),
  unknown: { target: NONE },
  request: (i) => ({ method: 'POST', url: path(Number(i.target)), payload }),
  success: 200,
});

/** Profiles, reviews and deals (trust); reports, blocks, own data and moderation (safety). */
export const trustAndSafetyCases: CaseTable = {
  'GET /users/:id/profile': byId({
    name: 'a student',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ user: w.msu.owner.id }),
    unknown: { user: NONE },
    request: (ids) => ({ method: 'GET', url: `/users/${ids.user}/profile` }),
    success: 200,
  }),
  'GET /users/:id/reviews': byId({
    name: 'a reviewed student',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ user: w.msu.owner.id }),
    unknown: { user: NONE },
    request: (ids) => ({ method: 'GET', url: `/users/${ids.user}/reviews` }),
    success: 200,
  }),
  'PATCH /users/me': own({
    request: () => ({
      method: 'PATCH',
      url: '/users/me',
      payload: { bio: 'Selling what I no longer need.' },
    }),
    success: 200,
  }),
  'POST /users/me/avatar': own({
    request: (w) => ({ method: 'POST', url: '/users/me/avatar', ...multipart({}, [{ data: w.jpeg }]) }),
    success: 200,
  }),
  'GET /deals': list({ party: (w) => w.msu.owner, request: () => ({ method: 'GET', url: '/deals' }) }),
  'POST /deals/:id/review': byId({
    name: 'a deal',
    party: (w) => w.msu.buyer,
    ids: async (w) => ({ deal: await freshDeal(w) }),
    unknown: { deal: NONE },
    request: (ids) => ({
      method: 'POST',
      url: `/deals/${ids.deal}/review`,
      payload: { stars: 5, text: 'On time.' },
    }),
    success: 201,
  }),

  'POST /reports': byId(
    report(
      'LISTING',
      (w) => w.msu.stranger,
      async (w) => ({ target: (await freshListing(w)).id }),
    ),
    report(
      'USER',
      (w) => w.msu.stranger,
      async (w) => ({ target: (await freshMsuStudent(w)).id }),
    ),
    // The buyer sees the owner's message (their room); one open report per target.
    report(
      'MESSAGE',
      (w) => w.msu.buyer,
      (w) => ({ target: w.messageId }),
    ),
  ),
  'PUT /users/:id/block': byId({
    name: 'a student',
    party: (w) => w.msu.owner,
    ids: async (w) => ({ user: (await freshMsuStudent(w)).id }),
    unknown: { user: NONE },
    request: (ids) => ({ method: 'PUT', url: `/users/${ids.user}/block` }),
    success: 200,
  }),
  'DELETE /users/:id/block': byId({
    name: 'a blocked student',
    party: (w) => w.msu.owner,
    ids: async (w) => {
      const blocked = await freshMsuStudent(w);
      await must(w.t, w.msu.owner, { method: 'PUT', url: `/users/${blocked.id}/block` }, 200);
      return { user: blocked.id };
    },
    unknown: { user: NONE },
    request: (ids) => ({ method: 'DELETE', url: `/users/${ids.user}/block` }),
    success: 200,
  }),
  'GET /users/blocked': list({
    party: (w) => w.msu.owner,
    request: () => ({ method: 'GET', url: '/users/blocked' }),
  }),
  'GET /users/me/safety': own({ request: () => ({ method: 'GET', url: '/users/me/safety' }), success: 200 }),
  'GET /users/me/export': own({ request: () => ({ method: 'GET', url: '/users/me/export' }), success: 200 }),
  'DELETE /users/me': own({
    callers: freshCallers,
    request: (_w, who) => ({ method: 'DELETE', url: '/users/me', payload: { password: who.password } }),
    success: 200,
  }),

  'GET /mod/reports': list({
    party: msuMod,
    outsider: uwMod,
    request: () => ({ method: 'GET', url: '/mod/reports' }),
  }),
  'GET /mod/audit': list({
    party: msuMod,
    outsider: uwMod,
    request: () => ({ method: 'GET', url: '/mod/audit' }),
  }),
  'POST /mod/reports/:id/dismiss': byId(
    modAction('an open report', (id) => `/mod/reports/${id}/dismiss`, freshReport, { reason: 'Looks fine.' }),
  ),
  'POST /mod/listings/:id/remove': byId(
    modAction(
      'a listing',
      (id) => `/mod/listings/${id}/remove`,
      async (w) => (await freshListing(w)).id,
      { reason: 'Not allowed here.' },
    ),
  ),
  'POST /mod/listings/:id/restore': byId(
    modAction(
      'a removed listing',
      (id) => `/mod/listings/${id}/restore`,
      async (w) => {
        const { id } = await freshListing(w);
        await must(
          w.t,
          w.msu.mod,
          { method: 'POST', url: `/mod/listings/${id}/remove`, payload: { reason: 'Checking.' } },
          200,
        );
        return id;
      },
      { reason: 'Fine after all.' },
    ),
  ),
  'POST /mod/users/:id/suspend': byId(
    modAction(
      'a student',
      (id) => `/mod/users/${id}/suspend`,
      async (w) => (await freshMsuStudent(w)).id,
      { reason: 'Spam.', days: 1 },
    ),
  ),
  'POST /mod/users/:id/unsuspend': byId(
    modAction(
      'a suspended student',
      (id) => `/mod/users/${id}/unsuspend`,
      async (w) => {
        const { id } = await freshMsuStudent(w);
        await must(
          w.t,
          w.msu.mod,
          { method: 'POST', url: `/mod/users/${id}/suspend`, payload: { reason: 'Spam.' } },
          200,
        );
        return id;
      },
      { reason: 'Appeal granted.' },
    ),
  ),
};
