import { randomBytes } from 'node:crypto';
import { ERROR_CODES, SSO_MESSAGES, ssoExchangeSchema } from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { HttpError, parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import { refusalPage } from './pages.js';
import { ssoAddresses, type SsoProtocols } from './protocols.js';
import { SignInRefused, type SsoCampus, type SsoService } from './service.js';

/**
 * Ties a sign-in to the browser that started it: /start sets it, the callback must bring it back,
 * so a callback link made by someone else (login CSRF: signing a victim into the attacker's
 * account) finds no match. HttpOnly, only sent to /auth/sso, gone after the pending request's life.
 */
const BROWSER_COOKIE = 'cm_sso';

const slugParams = z.object({ slug: z.string() });
const htmlBody = { text: '<!doctype html><html>…</html>' };

export function ssoRoutes(ctx: AppContext, service: SsoService, protocols: SsoProtocols) {
  const { publicUrl } = ctx.config;
  const secureCookies = publicUrl.startsWith('https://');
  const addresses = (campus: SsoCampus) => ssoAddresses(publicUrl, campus);

  /** A page a person reads; its links go to the campus's own home and log-in pages. */
  const page = (reply: FastifyReply, status: number, campus: SsoCampus | null, message: string) => {
    const { loginUrl, homeUrl } = campus
      ? addresses(campus)
      : { loginUrl: `${publicUrl}/login`, homeUrl: `${publicUrl}/` };
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        refusalPage({
          campusName: campus?.name ?? null,
          message,
          backUrl: loginUrl,
          homeUrl,
        }),
      );
  };

  const campusOr404 = (request: FastifyRequest, reply: FastifyReply): SsoCampus | undefined => {
    const { slug } = request.params as { slug: string };
    const campus = service.campus(slug);
    if (!campus) void page(reply, 404, null, SSO_MESSAGES.notOffered);
    return campus;
  };

  const failed = (request: FastifyRequest, reply: FastifyReply, campus: SsoCampus, err: unknown) => {
    if (err instanceof SignInRefused) {
      // The reason only: never the address, the code, the token or the assertion.
      request.log.info({ campus: campus.slug, reason: err.reason }, 'university sign-in refused');
      return page(reply, err.status, campus, err.message);
    }
    // Suspension (403) and rate limits (429, with its Retry-After) as the same kind of page.
    if (err instanceof HttpError && err.statusCode < 500)
      return page(reply.headers(err.headers), err.statusCode, campus, err.message);
    throw err;
  };

  return async function routes(app: FastifyInstance): Promise<void> {
    // SAML's HTTP-POST binding sends SAMLResponse and RelayState form-encoded (this plugin only).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get(
      '/auth/sso/:slug/start',
      doc({
        tag: 'university sign-in',
        summary: "Sends the browser to the campus's university sign-in (302)",
        description:
          'OIDC: authorization code with PKCE (S256), state and nonce. SAML: a signed AuthnRequest with RelayState. Sets a short-lived cookie binding the sign-in to this browser. A campus without university sign-in answers a 404 page.',
        params: slugParams,
        status: 302,
        errors: [404, 429, 503],
      }),
      async (request, reply) => {
        const campus = campusOr404(request, reply);
        if (!campus) return reply;
        // A campus with its own site starts there: the binding cookie must be on the origin the
        // university sends the student back to (the campus's callback).
        const site = addresses(campus);
        if (campus.hosts.length > 0 && request.headers.host !== new URL(site.base).host) {
          return reply.header('cache-control', 'no-store').redirect(site.startUrl, 302);
        }
        const browserKey = cookie(request, BROWSER_COOKIE) ?? randomBytes(24).toString('base64url');
        try {
          await ctx.limits.consume('sso:ip', request.ip);
          const redirectUrl = await service.start(campus, browserKey);
          // SAML comes back with a cross-site POST: only a SameSite=None (so Secure) cookie rides along.
          const crossSite = campus.sso.type === 'saml' && secureCookies;
          const attributes = [
            `${BROWSER_COOKIE}=${browserKey}`,
            'Path=/auth/sso',
            'HttpOnly',
            'Max-Age=600',
            crossSite ? 'SameSite=None' : 'SameSite=Lax',
            ...(secureCookies ? ['Secure'] : []),
          ];
          return await reply
            .header('set-cookie', attributes.join('; '))
            .header('cache-control', 'no-store')
            .redirect(redirectUrl, 302);
        } catch (err) {
          return failed(request, reply, campus, err);
        }
      },
    );

    const callback = async (request: FastifyRequest, reply: FastifyReply) => {
      const campus = campusOr404(request, reply);
      if (!campus) return reply;
      const query = strings(request.query);
      const form = strings(request.body);
      const rawQuery = request.raw.url?.split('?')[1];
      const url = new URL(addresses(campus).callbackUrl);
      if (rawQuery) url.search = rawQuery;
      // Outside https a SAML POST cannot carry a SameSite=None cookie: there (development only)
      // the binding is not asked for. Everywhere else it must match.
      const binding = cookie(request, BROWSER_COOKIE);
      const exempt = campus.sso.type === 'saml' && !secureCookies;
      try {
        await ctx.limits.consume('sso:ip', request.ip);
        const code = await service.finish(campus, { query, form, url }, exempt ? null : (binding ?? ''));
        return await reply
          .header('set-cookie', `${BROWSER_COOKIE}=; Path=/auth/sso; HttpOnly; Max-Age=0`)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(`${addresses(campus).doneUrl}#code=${encodeURIComponent(code)}`, 302);
      } catch (err) {
        return failed(request, reply, campus, err);
      }
    };
    const callbackDoc = {
      tag: 'university sign-in',
      params: slugParams,
      status: 302,
      response: htmlBody,
      errors: [400, 403, 404, 429, 503],
    } as const;
    app.get(
      '/auth/sso/:slug/callback',
      doc({
        ...callbackDoc,
        summary: 'Where the university sends the student back (OIDC, query string)',
        description:
          'Checks everything a relying party must, creates or links the account, then 302 to `/sso/done#code=…`. A refusal is an HTML page saying why, with a link back to log in.',
      }),
      callback,
    );
    app.post(
      '/auth/sso/:slug/callback',
      doc({
        ...callbackDoc,
        summary: 'The SAML assertion consumer service (HTTP-POST binding: SAMLResponse, RelayState)',
        description:
          'Checks signature, audience, destination, InResponseTo, NotOnOrAfter and replay, creates or links the account, then 302 to `/sso/done#code=…`. A refusal is an HTML page saying why.',
      }),
      callback,
    );

    app.post(
      '/auth/sso/exchange',
      doc({
        tag: 'university sign-in',
        summary: 'Trades the one-time code of /sso/done#code=… for the token login gives',
        description:
          'The code works once, within 60 seconds. The answer is the same bearer token as POST /public/login.',
        body: ssoExchangeSchema,
        response: { text: 'eyJhbGciOiJIUzI1NiJ9…' },
        errors: [400, 403],
      }),
      async (request, reply) => {
        const body = parseOr400(ssoExchangeSchema, request.body);
        const token = await service.exchange(body.code);
        return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(token);
      },
    );

    app.get(
      '/auth/sso/:slug/metadata',
      doc({
        tag: 'university sign-in',
        summary: "The SAML service provider's metadata (for the university's registration)",
        params: slugParams,
        response: { text: '<EntityDescriptor …>' },
        errors: [404, 503],
      }),
      async (request, reply) => {
        const { slug } = request.params as { slug: string };
        const campus = service.campus(slug);
        if (!campus || campus.sso.type !== 'saml') {
          throw new HttpError(
            404,
            campus ? SSO_MESSAGES.noMetadata : SSO_MESSAGES.notOffered,
            ERROR_CODES.notFound,
          );
        }
        const protocol = await protocols.for(campus).catch(() => undefined);
        const xml = protocol?.metadata?.();
        if (!xml) throw new HttpError(503, SSO_MESSAGES.unavailable(campus.name), ERROR_CODES.unavailable);
        return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
      },
    );
  };
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=') || undefined;
  }
  return undefined;
}

/** Query or form fields as strings (a repeated field keeps its first value). */
function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}
