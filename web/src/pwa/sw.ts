/**
 * Campus Market service worker (features.md §D "Installable app"), built by vite-plugin-pwa
 * (injectManifest) with Workbox.
 *
 * - Precache: the offline page and the icons (small; listed by the build).
 * - App shell: on install, index.html and the files it loads are cached; navigations go to the
 *   network first (a deploy is visible at once) and fall back to that shell when offline, or to the
 *   offline page for server pages (unsubscribe, docs) and when no shell is cached.
 * - Hashed /assets/ files: cache-first (their names change with their content).
 * - The API, uploads and WebSocket are never handled here: no response of the API is cached, so
 *   the app never shows stale data from the worker.
 * - Push: shows the notification; a click focuses an open tab on that screen or opens one.
 *
 * Typed with small local interfaces: the web project's DOM lib and the WebWorker lib conflict.
 */
import { ExpirationPlugin } from 'workbox-expiration';
import { precacheAndRoute, matchPrecache } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { NOTIFICATION_CENTRE_PATH } from '@campus/contract/pages';

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response> | Response): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data: unknown };
}
interface SwScope {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', l: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', l: (e: FetchEvent) => void): void;
  addEventListener(type: 'push', l: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', l: (e: NotificationEvent) => void): void;
}

const sw = self as unknown as SwScope;
const SHELL_CACHE = 'campus-shell-v1';
const OFFLINE_URL = '/offline.html';
/** Paths the server answers itself (never the SPA shell). */
const SERVER_PAGES = /^\/(public|auth|api|docs|openapi|dev|uploads|ws|healthz|readyz)(\/|\.|$)/;

// The build replaces `self.__WB_MANIFEST` (this exact expression) with the precache list.
precacheAndRoute((self as unknown as SwScope).__WB_MANIFEST);

registerRoute(
  ({ url, request }) =>
    url.origin === sw.location.origin && url.pathname.startsWith('/assets/') && request.method === 'GET',
  new CacheFirst({
    cacheName: 'campus-assets',
    plugins: [new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 30 * 24 * 3600 })],
  }),
);

/** index.html and the scripts/styles it references: what the app needs to start offline. */
async function cacheShell(): Promise<void> {
  const response = await fetch('/index.html', { cache: 'no-store' });
  if (!response.ok) return;
  const html = await response.clone().text();
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const cache = await caches.open(SHELL_CACHE);
  await cache.put('/index.html', response);
  const assets = await caches.open('campus-assets');
  await Promise.all(
    files.map(async (file) => {
      if (await assets.match(file)) return;
      const r = await fetch(file);
      if (r.ok) await assets.put(file, r);
    }),
  );
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    cacheShell()
      .catch(() => undefined)
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.mode !== 'navigate' || request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  event.respondWith(
    (async () => {
      try {
        const response = await fetch(request);
        // Keep the shell current: a plain app page is the latest index.html. A page the server
        // rendered is not: it holds one student's data (their chats, their listings) and one
        // screen, and must never be what another page, or the next person on this device, opens
        // offline (the server marks it `private`).
        if (response.ok && !SERVER_PAGES.test(url.pathname)) {
          const type = response.headers.get('content-type') ?? '';
          const rendered = (response.headers.get('cache-control') ?? '').includes('private');
          if (type.includes('text/html') && !rendered) {
            const copy = response.clone();
            void caches.open(SHELL_CACHE).then((c) => c.put('/index.html', copy));
          }
        }
        return response;
      } catch {
        if (!SERVER_PAGES.test(url.pathname)) {
          const shell = await caches.open(SHELL_CACHE).then((c) => c.match('/index.html'));
          if (shell) return shell;
        }
        return (await matchPrecache(OFFLINE_URL)) ?? Response.error();
      }
    })(),
  );
});

interface PushData {
  title?: string;
  body?: string;
  link?: string;
  tag?: string;
}

sw.addEventListener('push', (event) => {
  let data: PushData = {};
  try {
    data = (event.data?.json() ?? {}) as PushData;
  } catch {
    data = { body: event.data?.text() };
  }
  event.waitUntil(
    sw.registration.showNotification(data.title ?? 'Campus Market', {
      body: data.body ?? '',
      tag: data.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // A push without a link opens the centre's page (never /notifications: that is the API's JSON).
      data: { link: data.link ?? NOTIFICATION_CENTRE_PATH },
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = (event.notification.data as { link?: string } | null)?.link ?? NOTIFICATION_CENTRE_PATH;
  // Only paths of this app: a push payload never sends the student elsewhere.
  const target = new URL(raw.startsWith('/') ? raw : NOTIFICATION_CENTRE_PATH, sw.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === sw.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(target);
        return;
      }
      await sw.clients.openWindow(target);
    })(),
  );
});
