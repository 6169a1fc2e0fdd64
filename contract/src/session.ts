/**
 * Cookie mirroring the web app's token (kept in localStorage) so the server can render a logged-in
 * page's first screen into its HTML. The server reads it only for page (text/html)
 * requests and never accepts it on an API route, which authenticate by the bearer header alone.
 * Its own module (`@campus/contract/session`) so the web app's tiny boot script can import it.
 */
export const TOKEN_COOKIE = 'cm_token';

/**
 * Header carrying a fresh token after a password change (the changing session stays logged in).
 * Here, not beside the account schemas: the API client reads it on every page, and a module with a
 * schema would bring Zod into the first visit's JavaScript.
 */
export const REFRESHED_TOKEN_HEADER = 'x-auth-token';

/**
 * One cookie's value from a `Cookie` header or `document.cookie` (the app reads a single cookie: no
 * library); null when it is absent or its encoding is broken.
 */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}
