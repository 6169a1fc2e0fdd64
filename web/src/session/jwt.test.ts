import { describe, expect, it } from 'vitest';
import { decodeJwt, getSessionClaims } from './jwt';

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenFor = (claims: object) => `${encode({ alg: 'HS256' })}.${encode(claims)}.signature`;

describe('decodeJwt', () => {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const token = tokenFor({ sub: 'maya@msu.edu', uid: 7, tv: 1, iat: 1, exp });

  it('decodes the same token the same way every time it is asked', () => {
    expect(decodeJwt(token)).toEqual({ sub: 'maya@msu.edu', uid: 7, tv: 1, iat: 1, exp });
    expect(decodeJwt(token)).toEqual({ sub: 'maya@msu.edu', uid: 7, tv: 1, iat: 1, exp });
    expect(getSessionClaims(token)?.uid).toBe(7);
  });

  it('hands each caller its own claims: changing one does not change the next answer', () => {
    const first = decodeJwt(token);
    if (first) first.uid = 99;
    expect(decodeJwt(token)?.uid).toBe(7);
  });

  it('follows a new token, and refuses what is not one', () => {
    expect(decodeJwt(tokenFor({ sub: 'omar@msu.edu', uid: 8, exp }))?.uid).toBe(8);
    expect(decodeJwt(token)?.uid).toBe(7);
    expect(decodeJwt('not.a-token')).toBeNull();
    expect(decodeJwt(null)).toBeNull();
    expect(getSessionClaims(tokenFor({ sub: 'old@msu.edu', uid: 9, exp: 1 }))).toBeNull();
  });
});
