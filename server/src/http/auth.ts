import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { inCampus } from '../db/campus-scope.js';
import { unauthorized } from './errors.js';
import { connectionToken } from './fast-lane.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The bearer token of a request (parsed once per keep-alive connection: fast-lane.ts). */
export function requestToken(request: FastifyRequest): string | null {
  return connectionToken(request.headers.authorization, request.raw.socket as object | null);
}

/**
 * preHandler for every call but the public ones: 401 for a missing, bad, expired or revoked token.
 * The rest of the request (later hooks, the handler, what it awaits) runs as work of the
 * student's campus (db/campus-scope.ts): what it reads and writes is that campus's.
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
      return inCampus(cached.campusId, () => done());
    }
    ctx.authenticate(token).then(
      (principal) => {
        if (!principal) return done(unauthorized());
        request.principal = principal;
        inCampus(principal.campusId, () => done());
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
