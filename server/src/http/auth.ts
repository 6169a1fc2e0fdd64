import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { unauthorized } from './errors.js';
import { bearerToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * preHandler for every call but the public ones: 401 for a missing, bad, expired or revoked token.
 * Callback style, not async: a token verified moments ago (the token cache, same TTL and
 * revocation as `authenticate`) is accepted synchronously, so hot reads pay no promise here.
 */
export function requireAuth(ctx: AppContext) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = bearerToken(request.headers.authorization);
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
