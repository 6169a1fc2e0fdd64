/**
 * Scroll positions across history (the declarative router has no `<ScrollRestoration>`): the top of
 * the page on a new entry, the saved position on Back and Forward.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const SCROLL_KEY = 'campus:scroll';
/** How long a restored position keeps being re-applied while the page is still growing. */
const RESTORE_WINDOW_MS = 2000;

function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/** What the student does to scroll on their own, which ends a restore. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls to `y` and, while the page is still too short to reach it (photos, a list still
 * rendering), tries again each frame until it gets there, the student scrolls or taps on their own,
 * or the window closes. Returns the cancel.
 */
function restoreScroll(y: number): () => void {
  window.scrollTo(0, y);
  if (y === 0 || Math.abs(window.scrollY - y) < 1) return () => undefined;
  const until = performance.now() + RESTORE_WINDOW_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };
  const retry = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) < 1 || performance.now() > until) stop();
    else frame = requestAnimationFrame(retry);
  };
  for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  frame = requestAnimationFrame(retry);
  return stop;
}

/**
 * Gives the document's history entry a key of its own before the router reads it. React Router
 * names an entry that has no key `default`, so every document loaded in a tab (each link from
 * outside, each typed address) would file its position under the same name, and Back to one of
 * them would restore another's. The key lives in the entry's `history.state`, which the browser
 * keeps with the entry, so a Back to this document later reads the same key. Call before the
 * router is created (main.tsx).
 */
export function keyThisHistoryEntry(): void {
  const state: unknown = window.history.state;
  const current = state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  if (typeof current.key === 'string') return;
  window.history.replaceState({ ...current, key: Math.random().toString(36).slice(2, 10) }, '');
}

function savePosition(key: string, y: number) {
  const positions = savedPositions();
  positions[key] = y;
  try {
    sessionStorage.setItem(SCROLL_KEY, JSON.stringify(positions));
  } catch {
    // Storage full or blocked: Back then opens at the top, nothing worse.
  }
}

/**
 * Top of the page on every new history entry; on Back/Forward the position the entry was left at
 * (kept in sessionStorage under the entry's key, so it survives the document being unloaded), as
 * the data router's `<ScrollRestoration>` did. While the app runs, the browser's own restoration is
 * off (`history.scrollRestoration`), as there: it restores once, at the popstate, against a page
 * that may not have grown back yet, and the two fought.
 *
 * A document's first render scrolls nowhere on its own: the browser has just put a fresh load at
 * the top and a reload where it was, and the student may already be scrolling the server-rendered
 * page. Only when the browser came back to this document (navigation timing `back_forward`) is the
 * saved position applied; a position is saved on leaving a location within the app and on leaving
 * the document (`pagehide`: a link to another document, a tap before the script was ready).
 */
export function ScrollRestorer() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const firstRender = useRef(true);
  useEffect(() => {
    if (!('scrollRestoration' in window.history)) return undefined;
    const manual = () => {
      window.history.scrollRestoration = 'manual';
    };
    // Leaving the document: the browser restores it if the student comes back (from the
    // back-forward cache, the page resumes as it was and takes over again on `pageshow`).
    const auto = () => {
      window.history.scrollRestoration = 'auto';
    };
    manual();
    window.addEventListener('pagehide', auto);
    window.addEventListener('pageshow', manual);
    return () => {
      window.removeEventListener('pagehide', auto);
      window.removeEventListener('pageshow', manual);
    };
  }, []);
  useLayoutEffect(() => {
    const first = firstRender.current;
    firstRender.current = false;
    if (location.hash) return undefined;
    let target: number | undefined;
    if (!first) {
      target = (navigationType === 'POP' ? savedPositions()[location.key] : undefined) ?? 0;
    } else {
      const timing = performance.getEntriesByType?.('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      if (timing?.type === 'back_forward') target = savedPositions()[location.key];
    }
    const cancelRestore = target === undefined ? undefined : restoreScroll(target);
    // The position as the student left it: by the time this cleanup runs the next page may have
    // replaced the DOM, and the window's own scrollY be clamped to that page's height.
    let left = window.scrollY;
    const onScroll = () => {
      left = window.scrollY;
    };
    const onPageHide = () => savePosition(location.key, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      cancelRestore?.();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      savePosition(location.key, left);
    };
  }, [location.key, location.hash, navigationType]);
  return null;
}
