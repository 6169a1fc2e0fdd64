import type { TokenClaims } from '@campus/contract';
import { SignJWT, jwtVerify } from 'jose';

const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export interface TokenSubject {
  userId: number;
  email: string;
  tokenVersion: number;
}

/** HS256 JWTs with sub = e-mail (spec §3), uid, and tv = the user's token version (design §4). */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: () => number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(subject: TokenSubject): Promise<string> {
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({ uid: subject.userId, tv: subject.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject.email)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(this.key);
  }

  /** Returns the claims of a well-signed, unexpired token, or null. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        // HS256 only, and a token without an expiry is refused.
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        currentDate: new Date(this.clock()),
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.uid !== 'number' ||
        typeof payload.tv !== 'number'
      ) {
        return null;
      }
      return payload as unknown as TokenClaims;
    } catch {
      return null;
    }
  }
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1] ?? null;
}
