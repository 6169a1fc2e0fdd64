import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** 6 digits from a CSPRNG in 100000-999999: the client sends the code as a number, so no leading zero. */
export function generateCode(): number {
  return randomInt(100_000, 1_000_000);
}

/** Codes are stored as an HMAC keyed by the server secret: a leaked database alone reveals none. */
export function hashCode(code: number, secret: string): string {
  return createHmac('sha256', secret).update(String(code)).digest('hex');
}

export function codeMatches(code: number, storedHash: string, secret: string): boolean {
  const a = Buffer.from(hashCode(code, secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
