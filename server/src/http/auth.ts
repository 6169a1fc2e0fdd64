import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { unauthorized } from './errors.js';
import { bearerToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** preHandler for every call but the public ones: 401 for a missing, bad, expired or revoked token. */
export function requireAuth(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    const principal = token ? await ctx.authenticate(token) : null;
    if (!principal) throw unauthorized();
    request.principal = principal;
  };
}

/** The caller of a route guarded by requireAuth. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
