import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { unauthorized } from './errors.js';
import { bearerToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The Authorization header a connection sent last, and the token in it. */
interface ParsedHeader {
  header: string;
  token: string;
}
const lastHeaderOf = new WeakMap<object, ParsedHeader>();

/**
 * The bearer token of a request. A client sends the same header on every request of a keep-alive
 * connection: that header is parsed once per connection, and the token handed on is the string
 * already looked up (its hash computed), so a hot read neither runs the regex nor hashes a
 * 200-character token again (issue 13). Only the parsing is remembered: whether the token is
 * still good is asked anew on every request.
 */
export function requestToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const connection = request.raw.socket as object | null;
  const last = connection ? lastHeaderOf.get(connection) : undefined;
  if (last && last.header === header) return last.token;
  const token = bearerToken(header);
  if (token && connection) lastHeaderOf.set(connection, { header, token });
  return token;
}

/**
 * preHandler for every call but the public ones: 401 for a missing, bad, expired or revoked token.
 * Callback style, not async: a token verified moments ago (the token cache, same TTL and
 * revocation as `authenticate`) is accepted synchronously, so hot reads pay no promise here.
 */
export function requireAuth(ctx: AppContext) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = requestToken(request);
    if (!token) return done(unauthorized());
    const cached = ctx.authenticateCached?.(token);
    if (cached) {
      request.principal = cached;
      return done();
    }
    ctx.authenticate(token).then(
      (principal) => {
        if (!principal) return done(unauthorized());
        request.principal = principal;
        done();
      },
      (err: unknown) => done(err as Error),
    );
  };
}

/** The caller of a route guarded by requireAuth. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
