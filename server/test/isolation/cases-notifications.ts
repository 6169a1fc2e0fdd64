import { browserKeys } from '../../src/notifications/testing.js';
import { NONE, because, byId, list, own, type CaseTable } from './matrix.js';
import { subscribePush } from './world.js';

const UNSUBSCRIBE =
  'A signed one-click link from an e-mail: the token names one student and one kind, and is all the authority it needs (no campus data is read for anyone else)';

const keys = browserKeys();

/** The notification centre, settings and push. */
export const notificationsCases: CaseTable = {
  'GET /public/push-key': because("The deployment's one VAPID public key, the same for every campus"),
  'GET /public/unsubscribe/:token': because(UNSUBSCRIBE),
  'POST /public/unsubscribe/:token': because(UNSUBSCRIBE),
  // The buyer's saved search and wanted post match both campuses' lamps (world.ts `bait`).
  'GET /notifications': list({
    party: (w) => w.msu.buyer,
    request: () => ({ method: 'GET', url: '/notifications' }),
  }),
  'POST /notifications/read': byId({
    name: 'a notification',
    party: (w) => w.msu.owner,
    ids: (w) => ({ notification: w.notificationId }),
    unknown: { notification: NONE },
    request: (ids) => ({
      method: 'POST',
      url: '/notifications/read',
      payload: { upTo: Number(ids.notification) },
    }),
    success: 200,
  }),
  'GET /users/me/notification-settings': own({
    request: () => ({ method: 'GET', url: '/users/me/notification-settings' }),
    success: 200,
  }),
  'PUT /users/me/notification-settings': own({
    request: () => ({
      method: 'PUT',
      url: '/users/me/notification-settings',
      payload: { kinds: { PRICE_DROP: { email: false } } },
    }),
    success: 200,
  }),
  // The same browser signing in to another campus's account: answered like a new endpoint.
  'POST /push/subscriptions': byId({
    name: "a browser's push endpoint",
    party: (w) => w.msu.owner,
    ids: async (w) => ({ endpoint: await subscribePush(w.t, w.msu.owner, 'taken') }),
    unknown: { endpoint: 'http://127.0.0.1:9/push/nobody-has-this' },
    request: (ids) => ({
      method: 'POST',
      url: '/push/subscriptions',
      payload: { endpoint: String(ids.endpoint), keys: { p256dh: keys.p256dh, auth: keys.auth } },
    }),
    success: 201,
  }),
  'DELETE /push/subscriptions': byId({
    name: "a student's push endpoint",
    party: (w) => w.msu.owner,
    ids: async (w) => ({ endpoint: await subscribePush(w.t, w.msu.owner, 'gone') }),
    unknown: { endpoint: 'http://127.0.0.1:9/push/nobody-has-this-either' },
    request: (ids) => ({
      method: 'DELETE',
      url: '/push/subscriptions',
      payload: { endpoint: String(ids.endpoint) },
    }),
    success: 204,
  }),
};
