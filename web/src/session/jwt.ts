import type { TokenClaims } from '@campus/contract';
import { getToken } from './token';

/** Claims as decoded from an untrusted token: every field may be missing. */
export type DecodedClaims = Partial<TokenClaims>;

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The last token decoded and its claims: a page asks for the same token's claims from every listing
 * card and badge it draws, and decoding (base64, TextDecoder, JSON) each time was a measurable part
 * of a logged-in page's hydration on a phone.
 */
let lastDecoded: { token: string; claims: DecodedClaims | null } | null = null;

/** Decodes a JWT payload without verifying it (the server verifies; spec §5). */
export function decodeJwt(token: string | null | undefined): DecodedClaims | null {
  if (!token) return null;
  if (lastDecoded?.token === token) return lastDecoded.claims && { ...lastDecoded.claims };
  const claims = decodePayload(token);
  lastDecoded = { token, claims };
  return claims && { ...claims };
}

function decodePayload(token: string): DecodedClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
    const record = payload as Record<string, unknown>;
    const claims: DecodedClaims = {};
    if (typeof record.sub === 'string') claims.sub = record.sub;
    if (typeof record.uid === 'number') claims.uid = record.uid;
    if (typeof record.tv === 'number') claims.tv = record.tv;
    if (typeof record.iat === 'number') claims.iat = record.iat;
    if (typeof record.exp === 'number') claims.exp = record.exp;
    return claims;
  } catch {
    return null;
  }
}

/**
 * Spec §2 guard rule: the token is decodable, has a numeric `exp` (seconds) and it is later than now.
 * Defaults to the stored token.
 */
export function isTokenValid(token: string | null = getToken(), nowMs: number = Date.now()): boolean {
  const claims = decodeJwt(token);
  return typeof claims?.exp === 'number' && claims.exp * 1000 > nowMs;
}

/** Claims of the stored token when it is valid, else null. */
export function getSessionClaims(token: string | null = getToken()): DecodedClaims | null {
  return isTokenValid(token) ? decodeJwt(token) : null;
}
