/**
 * Boot script: a few hundred bytes loaded `async` from index.html. It keeps the `cm_token` cookie in
 * step with the stored token (so the server can render logged-in pages), and then:
 * - on a page the server rendered (`<html data-ssr>`): records early typing and starts the app's
 *   scripts (named on its own tag) once the first screen and its photo are in (`startRenderedApp`);
 * - on the plain shell, while the entry (React, the router) is still downloading: adds
 *   `<link rel="modulepreload">` for the page's lazy chunk and its imports (otherwise only
 *   discovered once the entry has run).
 * Every page is normally rendered by the server, with its data and photo in the HTML; the shell is
 * what a browser without the cookie gets (once, before this script writes it), or a page whose
 * render failed. So the shell's head start on the first API calls and the photo, which every first
 * visit paid for in bytes, was dropped (docs/decisions.md, session 5).
 * The page-to-chunk table is filled in at build time by the `campus:boot` plugin (vite.config.ts).
 * It imports only small modules (token cookie, early input): it must stay small.
 */
import { clearTokenCookie, readTokenCookie, writeTokenCookie } from '../session/tokenCookie';
import { recordEarlyInput } from '../ssr/earlyInput';

declare const __ROUTE_CHUNKS__: Record<string, string[]>;

interface Claims {
  sub?: string;
  exp?: number;
}

function readToken(): { token: string; claims: Claims } | null {
  try {
    const token = localStorage.getItem('token');
    if (!token) return null;
    const part = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Claims;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return null;
    return { token, claims };
  } catch {
    return null;
  }
}

/** The lazy page module (its chunk name) of a location. */
function pageOf(pathname: string): string | null {
  if (pathname === '/') return 'LandingPage';
  if (pathname === '/login') return 'LoginPage';
  if (pathname === '/signup') return 'SignUpPage';
  if (pathname === '/dashboard') return 'DashboardPage';
  if (pathname === '/all_listings') return 'AllListingsPage';
  if (/^\/single_listing\/\d{1,10}$/.test(pathname)) return 'SingleListingPage';
  if (pathname === '/inbox') return 'InboxPage';
  if (pathname === '/addlisting') return 'AddListingPage';
  if (pathname === '/cat_listing') return 'CategoryListingsPage';
  if (pathname === '/personalListings') return 'PersonalListingsPage';
  if (pathname === '/chat' || pathname.startsWith('/chat/')) return 'ChatPage';
  return null;
}

/**
 * The cookie that lets the server render logged-in pages mirrors the stored token: written for a
 * session that predates it (or after a refresh), removed once the token is gone or expired.
 */
function syncTokenCookie(session: { token: string; claims: Claims } | null): void {
  try {
    const cookie = readTokenCookie();
    if (session && cookie !== session.token) writeTokenCookie(session.token, session.claims.exp);
    else if (!session && cookie !== null) clearTokenCookie();
  } catch {
    // Cookies blocked: pages are then rendered in the browser, as before.
  }
}

/** `<link rel="modulepreload">` for each file, inserted at once (each insertion costs a style pass). */
function modulePreload(hrefs: readonly string[]): void {
  const links = document.createDocumentFragment();
  for (const href of hrefs) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.appendChild(link);
  }
  document.head.appendChild(links);
}

/**
 * Runs `start` once the server-rendered first screen is on the glass: after its first paint and
 * once the screen's eager photos (its largest element) have loaded, at most 3 s on. The app's
 * scripts then do not compete with the photo for a slow link, nor hold up the first paint.
 */
function afterFirstScreen(start: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    start();
  };
  const whenPhotosLoaded = () => {
    const photos = [...document.querySelectorAll<HTMLImageElement>('#root img[loading="eager"]')].filter(
      (img) => !img.complete,
    );
    if (photos.length === 0) return go();
    let waiting = photos.length;
    const one = () => {
      waiting -= 1;
      if (waiting === 0) go();
    };
    for (const img of photos) {
      img.addEventListener('load', one, { once: true });
      img.addEventListener('error', one, { once: true });
    }
    setTimeout(go, 3000);
  };
  let painted = false;
  const afterPaint = () => {
    if (painted) return;
    painted = true;
    setTimeout(whenPhotosLoaded, 0);
  };
  // The browser's own first-contentful-paint entry: a frame callback can run before that frame is on
  // the screen, and scripts requested before it count as holding up the first paint.
  new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length > 0) afterPaint();
  }).observe({ type: 'paint', buffered: true });
  // A tab opened in the background paints only once it is shown.
  setTimeout(afterPaint, 3000);
}

/**
 * A server-rendered page (server/src/web/renderer.ts) names the app's entry and its imports on this
 * script's tag instead of loading them from the HTML: they start after the first screen.
 */
function startRenderedApp(me: HTMLScriptElement, pageChunks: readonly string[]): void {
  const entry = me.dataset.entry;
  if (!entry) return;
  const imports = (me.dataset.preload ?? '').split(' ').filter(Boolean);
  // Typing into the page's fields before the app has taken them over is kept (ssr/earlyInput.ts).
  recordEarlyInput();
  afterFirstScreen(() => {
    modulePreload([...imports, ...pageChunks]);
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  });
}

function boot(): void {
  const me = document.currentScript as HTMLScriptElement | null;
  const session = readToken();
  syncTokenCookie(session);
  const page = pageOf(location.pathname);
  const pageChunks = page ? (__ROUTE_CHUNKS__[page] ?? []) : [];
  // A page the server rendered already shows its first screen, with its data and photo.
  if (me && document.documentElement.hasAttribute('data-ssr')) return startRenderedApp(me, pageChunks);
  modulePreload(pageChunks);
}

boot();
