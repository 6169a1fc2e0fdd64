import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** This app's STOMP endpoint as a browser names it: PUBLIC_URL with ws(s): and the /ws path. */
export function webSocketUrl(publicUrl: string): string {
  const url = new URL('/ws', publicUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * The Content-Security-Policy of every answer (the SPA's pages and the API alike). Toasts inject
 * their own style tag, hence 'unsafe-inline' for styles only. Scripts may connect only to this
 * origin ('self', which CSP Level 3 browsers also apply to ws:/wss: on the same host) and to this
 * app's WebSocket URL named by PUBLIC_URL — never to a WebSocket on another host. Images may also
 * come from `imageOrigins`: with photos in a bucket, PHOTO_BASE_URL's origin and the origin of the
 * bucket's signed URLs (chat photos).
 */
export const contentSecurityPolicy = (publicUrl: string, imageOrigins: readonly string[] = []): string =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${webSocketUrl(publicUrl)}`,
  ].join(';');

/**
 * The security headers of every response, computed once: exactly the headers @fastify/helmet 13
 * (helmet 8) set with our policy (security-headers.test.ts compares them with helmet itself), without
 * re-parsing helmet's options and running its middleware chain on every request (it showed as
 * ~13 % of the server's CPU on the hot read endpoints). HSTS only in production, which sits
 * behind a TLS proxy.
 */
export function securityHeaders(
  production: boolean,
  publicUrl: string,
  imageOrigins: readonly string[] = [],
): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy(publicUrl, imageOrigins),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Request ids: the caller's `x-request-id` when it is a plain token, else this process's random
 * prefix and a counter (unique per process, unique across processes with overwhelming
 * probability, and far cheaper than a UUID per request).
 */
export function requestIdGenerator(): (req: { headers: IncomingHttpHeaders }) => string {
  const prefix = randomBytes(6).toString('base64url');
  let seq = 0;
  return (req) => {
    const incoming = req.headers['x-request-id'];
    if (typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming)) return incoming;
    seq += 1;
    return `${prefix}-${seq.toString(36)}`;
  };
}

/**
 * Where Fastify keeps a reply's headers until it writes them (fastify/lib/symbols.js,
 * `kReplyHeaders`), found by its description on a reply; undefined if this Fastify has none.
 */
export function replyHeadersSymbol(reply: FastifyReply): symbol | undefined {
  return Object.getOwnPropertySymbols(reply).find((s) => s.description === 'fastify.reply.headers');
}

/**
 * One synchronous onRequest hook for every answer (pages, API, errors, 404s, uploads): the
 * security headers and the request id. It runs first on a fresh reply, whose header bag is still
 * empty: the precomputed headers are copied into the bag in one step rather than set through
 * `reply.header` twelve times (each lower-cases its name and stores through a lookup that
 * V8 cannot specialise, ≈ 3 % of a hot read's CPU). If this Fastify keeps its headers
 * elsewhere, or something set a header before, it falls back to `reply.headers`; the
 * security-headers tests check the answer either way. Returns the headers (the fast lane sends them too).
 */
export function registerResponseHeaders(
  app: FastifyInstance,
  production: boolean,
  publicUrl: string,
  imageOrigins: readonly string[] = [],
): Readonly<Record<string, string>> {
  const headers = securityHeaders(production, publicUrl, imageOrigins);
  // A plain (not frozen) source: Object.assign into an empty object then copies it in one step.
  const template: Record<string, string> = { ...headers };
  let bag: symbol | undefined | null = null;
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (bag === null) bag = replyHeadersSymbol(reply);
    const own = bag && (reply as unknown as Record<symbol, Record<string, string> | undefined>)[bag];
    if (own && isEmpty(own)) {
      Object.assign(own, template);
      own['x-request-id'] = request.id;
    } else {
      reply.headers(headers);
      reply.header('x-request-id', request.id);
    }
    done();
  });
  return headers;
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
