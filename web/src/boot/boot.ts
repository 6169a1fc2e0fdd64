/**
 * Boot script: a few hundred bytes loaded `async` from index.html. It keeps the `cm_token` cookie in
 * step with the stored token (so the server can render logged-in pages), and on a page the server
 * rendered (`<html data-ssr>`) records early typing and starts the app's scripts (named on its own
 * tag: the entry, its imports and the page's chunks) once the first screen and its photo are in
 * (`startRenderedApp`). On the plain shell the server has already put modulepreload links for the
 * page's chunks into the HTML (server/src/web/pageChunks.ts), so this script carries no
 * page-to-chunk table. It imports only small modules (token cookie, early input): it must stay small.
 */
import { clearTokenCookie, readTokenCookie, writeTokenCookie } from '../session/tokenCookie';
import { recordEarlyInput } from '../ssr/earlyInput';

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
 * A server-rendered page (server/src/web/renderer.ts) names the app's entry, its imports and the
 * page's chunks on this script's tag instead of loading them from the HTML: they start after the
 * first screen.
 */
function startRenderedApp(me: HTMLScriptElement): void {
  const entry = me.dataset.entry;
  if (!entry) return;
  const imports = (me.dataset.preload ?? '').split(' ').filter(Boolean);
  // Typing into the page's fields before the app has taken them over is kept (ssr/earlyInput.ts).
  recordEarlyInput();
  afterFirstScreen(() => {
    modulePreload(imports);
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
  // A page the server rendered already shows its first screen, with its data and photo.
  if (me && document.documentElement.hasAttribute('data-ssr')) startRenderedApp(me);
}

boot();
