/**
 * Boot script: a few hundred bytes loaded `async` from index.html. It keeps the `cm_token` cookie in
 * step with the stored token (so the server can render logged-in pages), and then:
 * - on a page the server rendered (`<html data-ssr>`): records early typing and starts the app's
 *   scripts (named on its own tag) once the first screen and its photo are in (`startRenderedApp`);
 * - on the plain shell, while the entry (React, the router) is still downloading:
 *   1. adds `<link rel="modulepreload">` for the page's lazy chunk and its imports (otherwise only
 *      discovered once the entry has run),
 *   2. starts the page's first API calls; the API client (`api/client.ts`) picks the answers up;
 *   3. on pages whose largest element is a listing photo (the dashboard's rail, a listing), preloads
 *      that photo as soon as the answer naming it arrives, instead of after React has rendered.
 * The page-to-chunk table is filled in at build time by the `campus:boot` plugin (vite.config.ts).
 * It imports only small modules (prefetch registry, srcset builder, photo layout, token cookie,
 * early input): it must stay small.
 */
import type { Listing } from '@campus/contract';
import { variantSrcset, type ImageVariants } from '@campus/contract/media';
import { DETAIL_PHOTO_SIZES, RAIL_TILE_SIZES, leadPhotoVariants } from '../features/listings/photoLayout';
import { clearTokenCookie, readTokenCookie, writeTokenCookie } from '../session/tokenCookie';
import { recordEarlyInput } from '../ssr/earlyInput';
import { registerPrefetch } from './prefetch';

declare const __ROUTE_CHUNKS__: Record<string, string[]>;
declare const __API_BASE__: string;

/** The listing rail of /dashboard (LatestRail RAIL_LIMIT) and a page of /all_listings (LIMITS.pageDefault). */
const RAIL_LIMIT = 12;
const PAGE_LIMIT = 24;

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

/** The first screen's main photo: which call names it, where, and how wide it is drawn. */
interface PhotoHint {
  call: string;
  sizes: string;
  pick: (body: unknown) => ImageVariants | null | undefined;
}

/** Page chunk, API calls (path + query, as the API client builds them) and main photo for a location. */
function plan(
  pathname: string,
  search: string,
  claims: Claims | null,
): { page: string; calls: string[]; photo?: PhotoHint } | null {
  const me = claims?.sub ? `/users/info?${new URLSearchParams({ email: claims.sub })}` : null;
  const mine = (calls: string[]) => (claims ? calls : []);
  if (pathname === '/') return { page: 'LandingPage', calls: [] };
  if (pathname === '/login') return { page: 'LoginPage', calls: [] };
  if (pathname === '/signup') return { page: 'SignUpPage', calls: [] };
  if (pathname === '/dashboard') {
    const rail = `/listings/recent?limit=${RAIL_LIMIT}`;
    return {
      page: 'DashboardPage',
      calls: mine([rail, ...(me ? [me] : [])]),
      // The rail's first tile (LatestRail, ListingCard "tile").
      photo: {
        call: rail,
        sizes: RAIL_TILE_SIZES,
        pick: (body) => (body as Listing[])[0]?.imageVariants,
      },
    };
  }
  if (pathname === '/all_listings') {
    return { page: 'AllListingsPage', calls: mine(search === '' ? [`/listings?limit=${PAGE_LIMIT}`] : []) };
  }
  const single = /^\/single_listing\/(\d{1,10})$/.exec(pathname);
  if (single) {
    const call = `/listing/${single[1]}`;
    return {
      page: 'SingleListingPage',
      calls: mine([call]),
      // The gallery's first photo (PhotoGallery).
      photo: {
        call,
        sizes: DETAIL_PHOTO_SIZES,
        pick: (body) => leadPhotoVariants(body as Listing),
      },
    };
  }
  if (pathname === '/inbox') return { page: 'InboxPage', calls: mine(['/api/chats']) };
  if (pathname === '/addlisting') return { page: 'AddListingPage', calls: [] };
  if (pathname === '/cat_listing') return { page: 'CategoryListingsPage', calls: [] };
  if (pathname === '/personalListings') return { page: 'PersonalListingsPage', calls: [] };
  if (pathname === '/chat' || pathname.startsWith('/chat/')) return { page: 'ChatPage', calls: [] };
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
 * Runs `start` once the server-rendered first screen is on the glass: after the first frame and
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
  const afterPaint = () => requestAnimationFrame(() => setTimeout(whenPhotosLoaded, 0));
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', afterPaint, { once: true });
  else afterPaint();
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
  const target = plan(location.pathname, location.search, session?.claims ?? null);
  const pageChunks = (target && __ROUTE_CHUNKS__[target.page]) ?? [];
  // A page the server rendered already shows its first screen, with its data and photo.
  if (me && document.documentElement.hasAttribute('data-ssr')) return startRenderedApp(me, pageChunks);
  if (!target) return;
  modulePreload(pageChunks);
  if (!session) return;
  for (const path of target.calls) {
    const url = `${__API_BASE__}${path}`;
    const response = fetch(url, {
      headers: { Accept: 'application/json, text/plain, */*', Authorization: `Bearer ${session.token}` },
      credentials: 'include',
    });
    // An unused failed call must not surface as an unhandled rejection.
    response.catch(() => undefined);
    registerPrefetch(url, { token: session.token, startedAt: performance.now(), response });
    if (target.photo?.call === path) preloadPhoto(response, target.photo);
  }
}

/**
 * `<link rel="preload" as="image">` for the photo the answer names, in the first format its
 * `<picture>` offers (AVIF; a browser without it skips the preload by its type), with the same
 * srcset and sizes, so the `<img>` React renders later finds the file already on its way.
 */
function preloadPhoto(response: Promise<Response>, hint: PhotoHint): void {
  response
    .then((r) => (r.ok ? (r.clone().json() as Promise<unknown>) : null))
    .then((body) => {
      const variants = body ? hint.pick(body) : null;
      const format = variants?.formats[0];
      if (!variants || !format) return;
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'image';
      link.type = `image/${format}`;
      link.setAttribute(
        'imagesrcset',
        variantSrcset({ ...variants, url: `${__API_BASE__}${variants.url}` }, format),
      );
      link.setAttribute('imagesizes', hint.sizes);
      link.setAttribute('fetchpriority', 'high');
      document.head.appendChild(link);
    })
    .catch(() => undefined);
}

boot();
