import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, Principal } from '../context.js';
import { unauthorized } from '../http/errors.js';
import { bearerToken } from '../http/tokens.js';

/**
 * Read-path caches of the listings module, per process (docs/decisions.md, "Listings: hot reads").
 *
 * 1. Principals by token, for AUTH_TTL_MS: a token is verified (signature, expiry, token version
 *    in the database) once, then reused; a password change or reset in this process drops the
 *    user's entries at once (`user.tokensRevoked`), one in another process within AUTH_TTL_MS.
 *    Expiry is still checked on every request.
 * 2. Serialized answers of the hottest reads (first pages of browse, GET /listing/{id}) for
 *    PAGE_TTL_MS; every listing write in this process clears them, writes elsewhere show within
 *    PAGE_TTL_MS.
 */
export const AUTH_TTL_MS = 5_000;
export const PAGE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface CachedPrincipal {
  principal: Principal;
  expiresAtMs: number;
  cachedAt: number;
}

export interface CachedAnswer {
  body: string;
  link: string | undefined;
  cachedAt: number;
}

export class HotCache {
  private principals = new Map<string, CachedPrincipal>();
  private answers = new Map<string, CachedAnswer>();

  constructor(private readonly ctx: AppContext) {
    ctx.events.on('user.tokensRevoked', ({ userId }) => {
      for (const [token, entry] of this.principals)
        if (entry.principal.userId === userId) this.principals.delete(token);
    });
  }

  /** preHandler: like requireAuth, with verified tokens remembered for AUTH_TTL_MS. */
  requireAuth() {
    return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      const token = bearerToken(request.headers.authorization);
      if (!token) throw unauthorized();
      const now = Date.now();
      const cached = this.principals.get(token);
      if (cached && now - cached.cachedAt < AUTH_TTL_MS && this.ctx.clock() < cached.expiresAtMs) {
        request.principal = cached.principal;
        return;
      }
      const principal = await this.ctx.authenticate(token);
      if (!principal) {
        this.principals.delete(token);
        throw unauthorized();
      }
      const claims = await this.ctx.tokens.verify(token);
      if (claims) {
        if (this.principals.size >= MAX_ENTRIES) this.principals.clear();
        this.principals.set(token, { principal, expiresAtMs: claims.exp * 1000, cachedAt: now });
      }
      request.principal = principal;
    };
  }

  answer(key: string): CachedAnswer | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.cachedAt >= PAGE_TTL_MS) {
      this.answers.delete(key);
      return undefined;
    }
    return hit;
  }

  remember(key: string, body: string, link: string | undefined): void {
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(key, { body, link, cachedAt: Date.now() });
  }

  /** Any listing write in this process. */
  listingsChanged(): void {
    this.answers.clear();
  }
}
