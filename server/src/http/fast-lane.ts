import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory, FastifyServerOptions } from 'fastify';
import type { Principal } from '../context.js';
import { inCampus } from '../db/campus-scope.js';
import { bearerToken } from './tokens.js';

/** What a fast read answers: the body as the route would send it, and its Link header if any. */
export interface FastAnswer {
  body: Buffer | string;
  link?: string | undefined;
}

/**
 * A read the lane may answer: given the rest of the path after the prefix it was registered
 * under and the authenticated caller, the answer from memory — or undefined, and Fastify answers.
 */
export type FastRead = (rest: string, principal: Principal) => FastAnswer | undefined;

/** What the lane needs from the app, known once its context is built. */
export interface FastLaneSetup {
  /** The security headers every answer carries (security-headers.ts). */
  headers: Readonly<Record<string, string>>;
  /** Fastify's own request-id generator (the same instance: ids stay unique per process). */
  requestId: (req: IncomingMessage) => string;
  /** The token cache: the caller when verified moments ago (same TTL and revocation as requireAuth). */
  authenticateCached: (token: string) => Principal | undefined;
  /** Whether requests are logged (`info`): then Fastify answers, so every request logs its lines. */
  logsRequests: () => boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The Authorization header a connection sent last, and the token in it. */
interface ParsedHeader {
  header: string;
  token: string | null;
}
const lastHeaderOf = new WeakMap<object, ParsedHeader>();

/**
 * The bearer token in an Authorization header. A client sends the same header on every request of a
 * keep-alive connection: it is parsed once per connection, and the token handed on is the string
 * already looked up (its hash computed), so a hot read neither runs the regex nor hashes a
 * 200-character token again. Only the parsing is remembered: whether the token is still
 * good is asked anew on every request.
 */
export function connectionToken(header: string | undefined, connection: object | null): string | null {
  if (!header) return null;
  const last = connection ? lastHeaderOf.get(connection) : undefined;
  if (last && last.header === header) return last.token;
  const token = bearerToken(header);
  if (connection) lastHeaderOf.set(connection, { header, token });
  return token;
}

/**
 * The hottest reads answered before Fastify routes the request (reads ≥ 0.8 × a bare
 * `node:http` server; Fastify's request and reply objects, hook runner and router cost ≈ 15 % of such a
 * read in a process holding a 100k-listing search index). It answers only when every piece of the
 * answer is already in memory and nothing differs from what the Fastify route would send:
 *
 * - only `GET` of a registered path, no query string, no request body;
 * - only a caller whose token the token cache verified moments ago (requireAuth's own check);
 * - only when the route's read says the answer is in memory and the same for this caller (the hot
 *   cache's rendering, the caller's saves and blocks cached: listings/routes.ts);
 * - the read runs as work of the caller's campus (db/campus-scope.ts), as the route would after
 *   requireAuth, and is handed the caller, whose campus picks what it may answer;
 * - not while requests are logged at `info` (Fastify writes those lines), not once the app closes
 *   (Fastify answers 503 then).
 *
 * Anything else — a missing or unknown token, a cold cache, a blocked seller, an error — goes to
 * Fastify untouched, which answers exactly as before. The answer carries the same status and headers
 * as Fastify's (security headers, request id, Link, content type and length); fast-lane tests compare
 * the two byte for byte but for the date and request id.
 */
export class FastLane {
  private readonly exact = new Map<string, FastRead>();
  private readonly prefixes: Array<{ prefix: string; read: FastRead }> = [];
  private setup: FastLaneSetup | undefined;
  /** The security headers as name, value, name, value…: each answer copies this array. */
  private headerPairs: string[] = [];
  private open = true;
  /** Requests answered here (tests and the benchmark check the lane is taken). */
  served = 0;

  configure(setup: FastLaneSetup): void {
    this.setup = setup;
    this.headerPairs = Object.entries(setup.headers).flat();
  }

  /** `GET path`, exactly. */
  exactGet(path: string, read: (principal: Principal) => FastAnswer | undefined): void {
    this.exact.set(path, (_rest, principal) => read(principal));
  }

  /** `GET prefix…`: the read checks the rest of the path. */
  prefixGet(prefix: string, read: FastRead): void {
    this.prefixes.push({ prefix, read });
  }

  /** The app is closing: from now on every request goes to Fastify. */
  close(): void {
    this.open = false;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Answers the request and returns true, or returns false having touched nothing. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const setup = this.setup;
    if (!setup || !this.open || req.method !== 'GET') return false;
    const url = req.url ?? '';
    let read = this.exact.get(url);
    let rest = '';
    if (!read) {
      for (const p of this.prefixes)
        if (url.startsWith(p.prefix)) {
          read = p.read;
          rest = url.slice(p.prefix.length);
          break;
        }
      // A query string is part of the rest: every read accepts only its own exact forms.
      if (!read) return false;
    }
    const headers = req.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (setup.logsRequests()) return false;
    const token = connectionToken(headers.authorization, req.socket);
    if (!token) return false;
    const principal = setup.authenticateCached(token);
    if (!principal) return false;
    let answer: FastAnswer | undefined;
    try {
      answer = inCampus(principal.campusId, () => read(rest, principal));
    } catch {
      return false;
    }
    if (!answer) return false;
    // The same headers, in the same order, as Fastify writes them for the route. A flat array
    // (node:http's writeHead takes one) copies the fixed part in one step, where an object would be
    // built key by key and walked with for…in (≈ 0.3 µs of a 25 µs read).
    const out = this.headerPairs.slice();
    out.push('x-request-id', setup.requestId(req));
    if (answer.link) out.push('link', answer.link);
    const length = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length;
    out.push('content-type', JSON_TYPE, 'content-length', String(length));
    res.writeHead(200, out);
    res.end(answer.body);
    this.served += 1;
    return true;
  }

  /**
   * Fastify's `serverFactory`: the HTTP/1 server Fastify would make (same timeouts), asking the lane
   * first on every request.
   */
  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    const opts = options as FastifyServerOptions & {
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
      maxRequestsPerSocket: number;
    };
    const server = http.createServer((req, res) => {
      if (!this.handle(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = opts.keepAliveTimeout;
    server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}
