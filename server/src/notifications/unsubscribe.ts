import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFY_MESSAGES,
  isNotificationKind,
  type NotificationKind,
} from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Campus } from '../campuses/index.js';
import type { AppContext } from '../context.js';
import { acrossCampuses, inCampus } from '../db/campus-scope.js';
import { campusBaseUrl } from '../campuses/index.js';
import { doc } from '../http/openapi.js';
import * as store from './store.js';
import type { Owner } from './store.js';
import { escapeHtml } from '../http/html.js';

/**
 * One-click unsubscribe (RFC 8058). The link names a campus, a student and one kind and carries an
 * HMAC of all three under the server secret, so it works without logging in, cannot be altered to
 * touch another kind, student or campus, and needs no stored token. It acts as work of the campus
 * it names, on that campus's student only. A GET only shows a page with a button (mail scanners
 * follow links); the POST — from that button or from the mail client's one-click — acts.
 *
 * Links sent before campuses (`{user}.{kind}.{sig}`) keep working: their student's campus is
 * looked up, which is the campus every row of theirs was filed under when the deployment upgraded.
 */
function signature(secret: string, owner: Owner, kind: NotificationKind): string {
  return createHmac('sha256', secret)
    .update(`unsubscribe:${owner.campusId}:${owner.userId}:${kind}`)
    .digest('base64url')
    .slice(0, 32);
}

function legacySignature(secret: string, userId: number, kind: NotificationKind): string {
  return createHmac('sha256', secret)
    .update(`unsubscribe:${userId}:${kind}`)
    .digest('base64url')
    .slice(0, 32);
}

export function unsubscribeToken(secret: string, owner: Owner, kind: NotificationKind): string {
  return `${owner.campusId}.${owner.userId}.${kind}.${signature(secret, owner, kind)}`;
}

/** On the campus's own site, like every link of its e-mails. */
export function unsubscribeUrl(ctx: AppContext, owner: Owner, kind: NotificationKind): string {
  const site = campusBaseUrl(ctx.config.publicUrl, ctx.campuses.byId(owner.campusId));
  return `${site}/public/unsubscribe/${unsubscribeToken(ctx.config.jwtSecret, owner, kind)}`;
}

const sameSignature = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

const isId = (n: number) => n >= 1 && n <= 2147483647;

export type UnsubscribeTarget = { kind: NotificationKind } & (
  | { owner: Owner }
  /** A link from before campuses: the student's campus is still to be found. */
  | { legacyUserId: number }
);

export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | null {
  const m = /^(?:(\d{1,10})\.)?(\d{1,10})\.([A-Z_]{1,32})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return null;
  const userId = Number(m[2]);
  const kind = m[3]!;
  if (!isNotificationKind(kind) || !isId(userId)) return null;
  if (m[1] === undefined) {
    return sameSignature(legacySignature(secret, userId, kind), m[4]!)
      ? { legacyUserId: userId, kind }
      : null;
  }
  const owner = { campusId: Number(m[1]), userId };
  if (!isId(owner.campusId)) return null;
  return sameSignature(signature(secret, owner, kind), m[4]!) ? { owner, kind } : null;
}

/**
 * The campus a valid link speaks for, and its student if they still have an account there (a
 * deleted account gets no e-mail anyway: the answer is the same, and nothing is written).
 */
async function linkTarget(
  ctx: AppContext,
  target: UnsubscribeTarget,
): Promise<{ campus: Campus; owner: Owner | undefined } | undefined> {
  if ('legacyUserId' in target) {
    // A signed user id, one row: the only read across campuses here.
    const row = await acrossCampuses(() =>
      ctx.db.kysely
        .selectFrom('users')
        .select('campus_id')
        .where('id', '=', target.legacyUserId)
        .executeTakeFirst(),
    );
    if (!row) return { campus: ctx.campuses.default, owner: undefined };
    const owner = { userId: target.legacyUserId, campusId: Number(row.campus_id) };
    return { campus: ctx.campuses.byId(owner.campusId), owner };
  }
  const { owner } = target;
  const campus = ctx.campuses.all().find((c) => c.id === owner.campusId);
  if (!campus) return undefined;
  const exists = await inCampus(owner.campusId, () => store.userContact(ctx.db.kysely, owner));
  return { campus, owner: exists ? owner : undefined };
}

function page(campus: Campus, title: string, inner: string): string {
  const product = `${campus.name} Campus Market`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(product)}</title>
<style>body{margin:0;background:#f4f6f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1c2b25}
main{max-width:480px;margin:48px auto;background:#fff;border-radius:16px;padding:32px}
h1{font-size:22px;color:#18453b;margin:0 0 12px}p{line-height:1.5}
button{background:#18453b;color:#fff;border:0;border-radius:10px;padding:14px 28px;font-size:16px;font-weight:600;cursor:pointer}
button:focus-visible{outline:3px solid #f0b429;outline-offset:2px}a{color:#18453b}</style></head>
<body><main><p style="font-weight:700;color:#18453b;font-size:14px">${escapeHtml(product)}</p>${inner}</main></body></html>`;
}

const tokenParams = z.object({ token: z.string() });
const htmlBody = { text: '<!doctype html><html>…</html>' };

export function unsubscribeRoutes(ctx: AppContext) {
  const settingsUrl = (campus: Campus) =>
    `${campusBaseUrl(ctx.config.publicUrl, campus)}/settings/notifications`;

  /** A link that is not valid (or names nobody now) answers the same, in the campus of the site asked. */
  const invalid = (request: FastifyRequest, reply: FastifyReply) => {
    const campus = ctx.campuses.forHost(request.hostname) ?? ctx.campuses.default;
    return reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(
        page(
          campus,
          'Link not valid',
          `<h1>This link is not valid</h1><p>${escapeHtml(NOTIFY_MESSAGES.unsubscribeInvalid)}</p><p><a href="${escapeHtml(settingsUrl(campus))}">Open e-mail settings</a></p>`,
        ),
      );
  };

  const answer = (reply: FastifyReply, campus: Campus, title: string, inner: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(campus, title, inner));

  return async function routes(app: FastifyInstance): Promise<void> {
    // RFC 8058 clients POST `List-Unsubscribe=One-Click` form-encoded; the body itself says nothing.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );

    app.get(
      '/public/unsubscribe/:token',
      doc({
        tag: 'notifications',
        summary: 'Unsubscribe page: shows what the link switches off and a button (changes nothing)',
        params: tokenParams,
        response: htmlBody,
        errors: [400],
      }),
      async (request, reply) => {
        const { token } = request.params as { token: string };
        const target = verifyUnsubscribeToken(ctx.config.jwtSecret, token);
        const link = target && (await linkTarget(ctx, target));
        if (!target || !link) return invalid(request, reply);
        const { campus } = link;
        const label = NOTIFICATION_KIND_LABELS[target.kind];
        return answer(
          reply,
          campus,
          'Unsubscribe',
          `<h1>Stop these e-mails?</h1><p>You will no longer get e-mails about: <strong>${escapeHtml(label)}</strong>. Other e-mails and the notifications in the app stay as they are.</p>
<form method="post" action="/public/unsubscribe/${escapeHtml(token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>
<p style="font-size:14px;color:#5b6b65">Changed your mind? <a href="${escapeHtml(settingsUrl(campus))}">Choose which e-mails you get</a>.</p>`,
        );
      },
    );

    app.post(
      '/public/unsubscribe/:token',
      doc({
        tag: 'notifications',
        summary: 'One-click unsubscribe (RFC 8058): switches e-mail off for the one kind the link names',
        description:
          'No login: the link is signed, and names the campus, the student and the kind. Accepts `List-Unsubscribe=One-Click` form bodies.',
        params: tokenParams,
        response: htmlBody,
        errors: [400],
      }),
      async (request, reply) => {
        const { token } = request.params as { token: string };
        const target = verifyUnsubscribeToken(ctx.config.jwtSecret, token);
        const link = target && (await linkTarget(ctx, target));
        if (!target || !link) return invalid(request, reply);
        const { campus, owner } = link;
        // Work of the student's campus: the switch is filed there.
        if (owner)
          await inCampus(owner.campusId, () =>
            store.setPref(ctx.db.kysely, owner, target.kind, 'email', false),
          );
        const label = NOTIFICATION_KIND_LABELS[target.kind];
        return answer(
          reply,
          campus,
          'Unsubscribed',
          `<h1>Unsubscribed</h1><p>${escapeHtml(NOTIFY_MESSAGES.unsubscribed)} (${escapeHtml(label)})</p><p><a href="${escapeHtml(settingsUrl(campus))}">Choose which e-mails you get</a></p>`,
        );
      },
    );
  };
}
