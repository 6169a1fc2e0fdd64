import { multipart } from '../../src/listings/testing.js';
import { freshCallers } from './fresh.js';
import { NONE, NO_ROOM, because, byId, list, own, type CaseTable } from './matrix.js';

const DOCS = 'The API description (Swagger UI and OpenAPI): the same for every caller, no campus data';
const ANONYMOUS =
  'Anonymous, by e-mail address: the address names its campus and the work runs in that campus ' +
  '(accounts asCampusOf; sign-up per campus in campuses.test.ts)';

const SSO =
  "Anonymous, by campus slug: the university's answer is checked for that campus and its address must be one of that campus's domains";

/** Operations, documentation, campuses, accounts and chat. */
export const accountsAndChatCases: CaseTable = {
  'GET /healthz': because('Liveness: answers {status} only'),
  'GET /readyz': because('Readiness: answers the database kind only'),
  'GET /openapi.json': because(DOCS),
  'GET /docs': because(DOCS),
  'GET /docs/json': because(DOCS),
  'GET /docs/yaml': because(DOCS),
  'GET /docs/static/*': because(DOCS),
  'GET /docs/static/index.html': because(DOCS),
  'GET /docs/static/swagger-initializer.js': because(DOCS),
  'GET /dev/outbox': because(
    'Development only (no SMTP_URL), from this machine only: the developer reads every mail',
    true,
  ),
  'GET /dev/outbox.json': because(
    'Development only (no SMTP_URL), from this machine only: the developer reads every mail',
    true,
  ),
  'GET /': because(
    "The built web app (only with web/dist): static files and pages that render from the API routes as the cookie's student, so they see what this matrix checks",
    true,
  ),
  'GET /*': because(
    "The built web app (only with web/dist): static files and pages that render from the API routes as the cookie's student, so they see what this matrix checks",
    true,
  ),
  'GET /uploads/*': because(
    'Image files by unguessable random key, no campus in the path: listing photos and avatars are public pictures by design; with S3_BUCKET this route is gone and chat photos are 15-minute signed URLs only the room gets (media/bucket-chat.test.ts)',
  ),

  'GET /public/campuses': because('The "find your campus" picker: every open campus, public by design (§E)'),
  'GET /public/campus': own({ request: () => ({ method: 'GET', url: '/public/campus' }), success: 200 }),

  'POST /public/sign-up': because(ANONYMOUS),
  'POST /public/verify': because(ANONYMOUS),
  'POST /public/verify/resend': because(ANONYMOUS),
  'POST /public/login': because(ANONYMOUS),
  'POST /public/password/forgot': because(ANONYMOUS),
  'POST /public/password/forgot/verify': because(ANONYMOUS),
  // University sign-in (§G): the campus is the path's slug; the asserted address must be that
  // campus's (another campus's is refused: sso/oidc-refusals.test.ts), and the work runs in it.
  'GET /auth/sso/:slug/start': because(SSO),
  'GET /auth/sso/:slug/callback': because(SSO),
  'POST /auth/sso/:slug/callback': because(SSO),
  'GET /auth/sso/:slug/metadata': because('SAML service-provider metadata: public by design, no campus data'),
  'POST /auth/sso/exchange': because(
    "Anonymous, by one-time code: the code's row names the user and campus it was issued for, and the token is that student's (sso/oidc-sign-in.test.ts)",
  ),
  'PUT /users/password/change': own({
    callers: freshCallers,
    request: (_w, who) => ({
      method: 'PUT',
      url: '/users/password/change',
      payload: { currentPassword: who.password, newPassword: 'a-new-long-password-77' },
    }),
    success: 200,
  }),
  'GET /users/info': byId({
    name: "a student's address",
    party: (w) => w.msu.owner,
    ids: (w) => ({ email: w.msu.owner.email }),
    unknown: { email: 'nobody-at-all@msu.edu' },
    request: (ids) => ({ method: 'GET', url: `/users/info?email=${encodeURIComponent(String(ids.email))}` }),
    success: 200,
  }),
  'GET /users/:id': byId({
    name: 'a student',
    party: (w) => w.msu.stranger,
    ids: (w) => ({ user: w.msu.owner.id }),
    unknown: { user: NONE },
    request: (ids) => ({ method: 'GET', url: `/users/${ids.user}` }),
    success: 200,
  }),

  'GET /api/chats': list({
    party: (w) => w.msu.owner,
    request: () => ({ method: 'GET', url: '/api/chats' }),
  }),
  'GET /api/chats/:roomId': byId({
    name: 'a room',
    party: (w) => w.msu.owner,
    ids: (w) => ({ room: w.roomId }),
    unknown: { room: NO_ROOM },
    request: (ids) => ({ method: 'GET', url: `/api/chats/${ids.room}` }),
    success: 200,
  }),
  'POST /api/chats/:roomId/read': byId({
    name: 'a room',
    party: (w) => w.msu.buyer,
    ids: (w) => ({ room: w.roomId }),
    unknown: { room: NO_ROOM },
    request: (ids) => ({ method: 'POST', url: `/api/chats/${ids.room}/read` }),
    success: 200,
  }),
  'GET /api/chats/:roomId/presence': byId({
    name: 'a room',
    party: (w) => w.msu.owner,
    ids: (w) => ({ room: w.roomId }),
    unknown: { room: NO_ROOM },
    request: (ids) => ({ method: 'GET', url: `/api/chats/${ids.room}/presence` }),
    success: 200,
  }),
  'POST /api/chats/upload': own({
    request: (w) => ({ method: 'POST', url: '/api/chats/upload', ...multipart({}, [{ data: w.jpeg }]) }),
    success: 200,
  }),
};
