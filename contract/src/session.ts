/**
 * Cookie mirroring the web app's token (kept in localStorage) so the server can render a logged-in
 * page's first screen into its HTML (issue 13). The server reads it only for page (text/html)
 * requests and never accepts it on an API route, which authenticate by the bearer header alone.
 * Its own module (`@campus/contract/session`) so the web app's tiny boot script can import it.
 */
export const TOKEN_COOKIE = 'cm_token';
