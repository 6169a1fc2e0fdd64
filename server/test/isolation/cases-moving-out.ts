import { freshCallers } from './fresh.js';
import { list, own, type CaseTable } from './matrix.js';

/** Moving out (features.md §H): the student's own plan, and the campus's moving-out feed. */
export const movingOutCases: CaseTable = {
  'GET /users/me/move-out': own({
    request: () => ({ method: 'GET', url: '/users/me/move-out' }),
    success: 200,
  }),
  'PUT /users/me/move-out': own({
    request: () => ({
      method: 'PUT',
      url: '/users/me/move-out',
      payload: { date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) },
    }),
    success: 200,
  }),
  'DELETE /users/me/move-out': own({
    callers: freshCallers,
    request: () => ({ method: 'DELETE', url: '/users/me/move-out' }),
    success: 204,
  }),
  // Nothing is held in the world: the answer is the caller's own (empty) list on either campus.
  'GET /listings/held': own({ request: () => ({ method: 'GET', url: '/listings/held' }), success: 200 }),
  'GET /listings/moving-out': list({
    party: (w) => w.msu.stranger,
    outsiderSees: true,
    request: () => ({ method: 'GET', url: '/listings/moving-out' }),
  }),
};
