import type { Principal } from '../context.js';
import type { DomainEvents } from '../events.js';

/** How long a verified token is trusted without asking the database again. */
export const TOKEN_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  expiresAtMs: number;
  cachedAt: number;
}

/**
 * Remembers verified tokens for a few seconds so hot reads skip the token-version lookup.
 * A password change or reset drops the user's entries at once: in this process through
 * `user.tokensRevoked`, in the others through `user.tokensRevokedElsewhere` (relayed by the
 * chat broker over Redis), so revocation does not wait for the TTL.
 */
export class TokenCache {
  private entries = new Map<string, Entry>();

  constructor(
    events: DomainEvents,
    private readonly clock: () => number,
  ) {
    const forget = ({ userId }: { userId: number }) => this.forgetUser(userId);
    events.afterCommit('user.tokensRevoked', forget);
    events.afterCommit('user.tokensRevokedElsewhere', forget);
  }

  get(token: string): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    const now = this.clock();
    if (now - entry.cachedAt >= TOKEN_CACHE_TTL_MS || now >= entry.expiresAtMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, principal: Principal, expiresAtMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { principal, expiresAtMs, cachedAt: this.clock() });
  }

  forgetUser(userId: number): void {
    for (const [token, entry] of this.entries)
      if (entry.principal.userId === userId) this.entries.delete(token);
  }
}
