import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { queryClient } from './api/queryClient';
import { App } from './app/App';
import { keyThisHistoryEntry } from './app/scroll-restorer';
import { SSR_STATE_ID, seedQueryCache } from './ssr/state';
import { keepServerClock } from './ui/timeBasis';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// Before the router reads the entry's key (its scroll position is saved under it).
keyThisHistoryEntry();

const app = <App client={queryClient} router={(routes) => <BrowserRouter>{routes}</BrowserRouter>} />;

// The server rendered this page's first screen (server/src/web/): take over its markup with the
// answers it was rendered from, so the first render here is the same and asks the API for nothing.
const serverState = document.getElementById(SSR_STATE_ID);
if (serverState && container.firstChild) {
  try {
    keepServerClock(seedQueryCache(queryClient, serverState.textContent ?? '{}'));
  } catch {
    // Unreadable state: the queries simply load again.
  }
  // A transition: React hydrates in slices and yields to the browser between them, so a phone's
  // main thread is never blocked for long (Total Blocking Time) while the page becomes interactive.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  startTransition(() => {
    createRoot(container).render(app);
  });
}

// The service worker (installable app, offline page, push) registers once the page has loaded and
// the browser is idle: nothing of it is on the first render's path.
// On a server-rendered page this script itself starts after the first screen, often after `load`
// has fired: then it registers at the next idle moment.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const whenIdle = () => {
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 2000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
