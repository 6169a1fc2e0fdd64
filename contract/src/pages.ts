/**
 * The web app's page addresses, shared by the router (web/src/router.tsx) and the server, which
 * answers a GET on any of them with the page — whatever the client's `Accept` says (a reload, a
 * bookmark, a link preview, `curl`) — and keeps JSON for API paths. A page path must never be an
 * API GET path: the API route would answer the reload with JSON. web/src/router.test.ts keeps this
 * list equal to the router's; server/src/web/page-paths.test.ts loads each path as a reload.
 * Its own module (`@campus/contract/pages`), so the service worker can import it without Zod.
 */

/** The notification centre's page. `/notifications` is the API's list (features.md §D). */
export const NOTIFICATION_CENTRE_PATH = '/notification-centre';

/** Every route of the web router, in React Router's syntax (`:param`, `:param?`). */
export const PAGE_PATHS = [
  '/',
  '/signup',
  '/login',
  '/resetPass',
  '/verify',
  // University sign-in ends here (features.md §G); its code is in the fragment.
  '/sso/done',
  '/dashboard',
  '/all_listings',
  '/cat_listing',
  '/single_listing/:id',
  '/addlisting',
  '/personalListings',
  '/edit_listing/:id',
  '/saved',
  '/moving_out',
  '/saved_searches',
  '/wanted_board',
  '/course/:code',
  '/inbox',
  '/chat/:roomidCreate?',
  '/u/:id',
  '/my-deals',
  '/settings/safety',
  '/moderation',
  '/changePass',
  NOTIFICATION_CENTRE_PATH,
  '/settings/notifications',
  '/nav',
  '/filter',
] as const;

/**
 * Page addresses that were once also API paths. The API keeps them; a browser navigation there
 * (an old bookmark or link) is sent on to the page.
 */
export const MOVED_PAGES: Readonly<Record<string, string>> = {
  '/notifications': NOTIFICATION_CENTRE_PATH,
};

/** React Router's matching: segments by name or `:param`, any case, an optional trailing slash. */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

const PAGE_PATTERNS: readonly RegExp[] = PAGE_PATHS.map(patternOf);

/** Whether a URL path (no query) opens one of the web app's pages. */
export function isPagePath(pathname: string): boolean {
  return PAGE_PATTERNS.some((pattern) => pattern.test(pathname));
}
