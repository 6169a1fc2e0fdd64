/**
 * The `cm_token` cookie mirrors the token kept in localStorage, so that the server can render the
 * first screen of a logged-in page into the HTML (server/src/web/). The server reads it only when
 * it answers a page request (GET, text/html) and never accepts it for an API call: API calls keep
 * authenticating with the bearer header, so the cookie adds no CSRF path. SameSite=Lax, Secure on
 * HTTPS, and it expires with the token.
 */
import { TOKEN_COOKIE, readCookie } from '@campus/contract/session';

function secure(): string {
  return window.location.protocol === 'https:' ? '; Secure' : '';
}

export function writeTokenCookie(token: string, expSeconds: number | undefined): void {
  const maxAge = expSeconds ? Math.max(0, Math.floor(expSeconds - Date.now() / 1000)) : 0;
  if (maxAge <= 0) return clearTokenCookie();
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure()}`;
}

export function clearTokenCookie(): void {
  document.cookie = `${TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure()}`;
}

/** The cookie's token, if it is set (the boot script re-writes a missing or stale cookie). */
export function readTokenCookie(): string | null {
  return readCookie(document.cookie, TOKEN_COOKIE);
}
