import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFY_MESSAGES,
  isNotificationKind,
  type NotificationKind,
} from '@campus/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { doc } from '../http/openapi.js';
import * as store from './store.js';
import { escapeHtml } from '../http/html.js';

/**
 * One-click unsubscribe (RFC 8058). The link names a user and one kind and carries an HMAC of both
 * under the server secret, so it works without logging in, cannot be altered to touch another kind
 * or student, and needs no stored token. A GET only shows a page with a button (mail scanners
 * follow links); the POST — from that button or from the mail client's one-click — acts.
 */
function signature(secret: string, userId: number, kind: NotificationKind): string {
  return createHmac('sha256', secret)
    .update(`unsubscribe:${userId}:${kind}`)
    .digest('base64url')
    .slice(0, 32);
}

export function unsubscribeToken(secret: string, userId: number, kind: NotificationKind): string {
  return `${userId}.${kind}.${signature(secret, userId, kind)}`;
}

export function unsubscribeUrl(ctx: AppContext, userId: number, kind: NotificationKind): string {
  return `${ctx.config.publicUrl}/public/unsubscribe/${unsubscribeToken(ctx.config.jwtSecret, userId, kind)}`;
}

export function verifyUnsubscribeToken(
  secret: string,
  token: string,
): { userId: number; kind: NotificationKind } | null {
  const m = /^(\d{1,10})\.([A-Z_]{1,32})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return null;
  const userId = Number(m[1]);
  const kind = m[2]!;
  if (!isNotificationKind(kind) || userId < 1 || userId > 2147483647) return null;
  const expected = Buffer.from(signature(secret, userId, kind));
  const given = Buffer.from(m[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, kind } : null;
}

function page(ctx: AppContext, title: string, inner: string): string {
  const product = `${ctx.campuses.current().name} Campus Market`;
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
  return async function routes(app: FastifyInstance): Promise<void> {
    // RFC 8058 clients POST `List-Unsubscribe=One-Click` form-encoded; the body itself says nothing.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    const settingsUrl = `${ctx.config.publicUrl}/settings/notifications`;
    const invalid = (reply: FastifyReply) =>
      reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(
          page(
            ctx,
            'Link not valid',
            `<h1>This link is not valid</h1><p>${escapeHtml(NOTIFY_MESSAGES.unsubscribeInvalid)}</p><p><a href="${escapeHtml(settingsUrl)}">Open e-mail settings</a></p>`,
          ),
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
        if (!target) return invalid(reply);
        const label = NOTIFICATION_KIND_LABELS[target.kind];
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            page(
              ctx,
              'Unsubscribe',
              `<h1>Stop these e-mails?</h1><p>You will no longer get e-mails about: <strong>${escapeHtml(label)}</strong>. Other e-mails and the notifications in the app stay as they are.</p>
<form method="post" action="/public/unsubscribe/${escapeHtml(token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>
<p style="font-size:14px;color:#5b6b65">Changed your mind? <a href="${escapeHtml(settingsUrl)}">Choose which e-mails you get</a>.</p>`,
            ),
          );
      },
    );

    app.post(
      '/public/unsubscribe/:token',
      doc({
        tag: 'notifications',
        summary: 'One-click unsubscribe (RFC 8058): switches e-mail off for the one kind the link names',
        description: 'No login: the link is signed. Accepts `List-Unsubscribe=One-Click` form bodies.',
        params: tokenParams,
        response: htmlBody,
        errors: [400],
      }),
      async (request, reply) => {
        const { token } = request.params as { token: string };
        const target = verifyUnsubscribeToken(ctx.config.jwtSecret, token);
        if (!target) return invalid(reply);
        // A deleted account gets no e-mail anyway; the answer is the same.
        if (await store.userContact(ctx.db.kysely, target.userId))
          await store.setPref(ctx.db.kysely, target.userId, target.kind, 'email', false);
        const label = NOTIFICATION_KIND_LABELS[target.kind];
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            page(
              ctx,
              'Unsubscribed',
              `<h1>Unsubscribed</h1><p>${escapeHtml(NOTIFY_MESSAGES.unsubscribed)} (${escapeHtml(label)})</p><p><a href="${escapeHtml(settingsUrl)}">Choose which e-mails you get</a></p>`,
            ),
          );
      },
    );
  };
}
