/**
 * The app's routes (router.tsx: a plain `RouteObject` tree with `lazy`, `errorElement` and `handle`)
 * rendered by React Router's declarative mode (`<BrowserRouter>` + `useRoutes`) instead of its data
 * router. The data router (loaders, actions, fetchers, revalidation: none of which the app uses)
 * weighs ≈ 29 KB brotli against ≈ 14 KB for the declarative mode; the difference is what brings a
 * first visit under its JavaScript budget (docs/performance.md). The three data-router
 * features the app relied on are provided here:
 *   - `lazy` routes: `React.lazy` per route, created once, inside a `Suspense` with the page spinner;
 *   - `errorElement`: an error boundary around the route's element (or `<Outlet/>` for a pathless
 *     group), reset when the location changes; `useRouteFailure()` replaces `useRouteError()`;
 *   - `handle`: `useRouteHandles()` gives the matched routes' handles (was `useMatches()`).
 * Scroll restoration: `ScrollRestorer` (top of the page on a new entry, the saved position on Back).
 */
import {
  Component,
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import {
  matchRoutes,
  Outlet,
  useLocation,
  useNavigationType,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { EARLY_INPUT_GLOBAL } from '../ssr/state';
import { PageSpinner } from '../ui/Spinner';

type LazyRoute = () => Promise<{ Component?: ComponentType | null }>;

const FailureContext = createContext<unknown>(undefined);
const HandlesContext = createContext<readonly unknown[]>([]);

/** The error that made the nearest route boundary show its `errorElement`. */
export function useRouteFailure(): unknown {
  return useContext(FailureContext);
}

/** `handle` of every route matching the current location, outermost first. */
export function useRouteHandles(): readonly unknown[] {
  return useContext(HandlesContext);
}

interface BoundaryProps {
  fallback: ReactNode;
  resetKey: string;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { error: unknown; failedAt: string | null }> {
  override state = { error: undefined as unknown, failedAt: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; failedAt: string | null }) {
    // Remember where it failed; a navigation elsewhere clears the error.
    if (state.failedAt === null && state.error !== undefined) return { failedAt: props.resetKey };
    if (state.failedAt !== null && state.failedAt !== props.resetKey)
      return { error: undefined, failedAt: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (import.meta.env.DEV) console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <FailureContext.Provider value={this.state.error}>{this.props.fallback}</FailureContext.Provider>;
  }
}

function RouteBoundary({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const { pathname, search } = useLocation();
  return (
    <Boundary fallback={fallback} resetKey={pathname + search}>
      {children}
    </Boundary>
  );
}

/**
 * One `React.lazy` per route module for the life of the page (and of the server process): once a
 * page's chunk has loaded, every later render — a second server render of the same page, the
 * browser's hydration of it — renders it at once instead of suspending again.
 */
const lazyPages = new WeakMap<LazyRoute, ComponentType>();

function lazyPage(load: LazyRoute, path: string | undefined): ComponentType {
  let Page = lazyPages.get(load);
  if (!Page) {
    Page = lazy(async () => {
      const { Component: Loaded } = await load();
      if (!Loaded) throw new Error(`Route ${path ?? ''} has no Component`);
      return { default: Loaded };
    });
    lazyPages.set(load, Page);
  }
  return Page;
}

/**
 * Once a page has hydrated (its boundary commits), text typed into its fields before that is handed
 * to React (ssr/earlyInput.ts). Renders nothing.
 */
function EarlyInputHandover() {
  useEffect(handOverEarlyInput, []);
  return null;
}

/** Only a rendered page recorded anything: the hand-over's code loads there and only there. */
function handOverEarlyInput(): void {
  if (!(EARLY_INPUT_GLOBAL in window)) return;
  void import('../ssr/earlyInput').then((m) => m.replayEarlyInput());
}

/** The same tree with `lazy` and `errorElement` turned into elements `useRoutes` renders. */
function toElementRoutes(routes: RouteObject[]): RouteObject[] {
  return routes.map((route): RouteObject => {
    let element = route.element;
    if (typeof route.lazy === 'function') {
      const Page = lazyPage(route.lazy as LazyRoute, route.path);
      element = (
        <Suspense fallback={<PageSpinner />}>
          <Page />
          <EarlyInputHandover />
        </Suspense>
      );
    }
    if (route.errorElement) {
      element = <RouteBoundary fallback={route.errorElement}>{element ?? <Outlet />}</RouteBoundary>;
    }
    if (route.index) return { index: true, element };
    return {
      path: route.path,
      caseSensitive: route.caseSensitive,
      element,
      children: route.children ? toElementRoutes(route.children) : undefined,
    };
  });
}

/** Renders the route tree for the current location (inside `<BrowserRouter>`). */
export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  const elementRoutes = useMemo(() => toElementRoutes(routes), [routes]);
  const location = useLocation();
  const handles = useMemo(
    () => (matchRoutes(routes, location) ?? []).map((m) => m.route.handle),
    [routes, location],
  );
  const rendered = useRoutes(elementRoutes, location);
  // The top bar's fields hydrate with the root, before the page's boundary.
  useEffect(handOverEarlyInput, []);
  return <HandlesContext.Provider value={handles}>{rendered}</HandlesContext.Provider>;
}

const SCROLL_KEY = 'campus:scroll';
/** How long a restore waits for the page to grow tall enough (its chunk, its data). */
const RESTORE_WAIT_MS = 1500;

/** Positions by history entry key: read once from sessionStorage, written back as they change. */
let positions: Record<string, number> | null = null;
let persistTimer: ReturnType<typeof setTimeout> | undefined;

function savedPositions(): Record<string, number> {
  if (positions === null) {
    try {
      positions = JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<string, number>;
    } catch {
      positions = {};
    }
  }
  return positions;
}

function remember(key: string, y: number): void {
  savedPositions()[key] = y;
  clearTimeout(persistTimer);
  persistTimer = setTimeout(() => {
    try {
      sessionStorage.setItem(SCROLL_KEY, JSON.stringify(savedPositions()));
    } catch {
      // Storage full or blocked: Back then opens at the top, nothing worse.
    }
  }, 200);
}

/**
 * Whether this document was opened by Back/Forward (its history entry existed before the load):
 * only then is a position saved for its first location one to go back to. A fresh load — a link,
 * a typed address, a new tab — carries the initial key `default` too, and must open at the top.
 */
function documentCameBack(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type === 'back_forward';
}

/**
 * Scrolls to `y` once the page is tall enough: a page coming back may still be loading its chunk
 * or data. Gives up when the student scrolls or after RESTORE_WAIT_MS. Returns a cancel.
 */
function scrollWhenTallEnough(y: number): () => void {
  const until = performance.now() + RESTORE_WAIT_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ['wheel', 'touchstart', 'keydown'] as const) window.removeEventListener(type, stop);
  };
  const attempt = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 1 && performance.now() < until) frame = requestAnimationFrame(attempt);
    else stop();
  };
  for (const type of ['wheel', 'touchstart', 'keydown'] as const)
    window.addEventListener(type, stop, { passive: true });
  attempt();
  return stop;
}

/**
 * Top of the page on every new history entry; on Back/Forward within the session the position the
 * entry was left at, as the data router's `<ScrollRestoration>` did. Positions are recorded as the
 * student scrolls (by the time a route change commits, the next page has replaced the DOM and the
 * window may already be clamped to its top) and kept in sessionStorage, so Back into this document
 * after a reload finds them. The first location of a document is restored only when the browser came
 * back to it: React Router reports every first render as a POP, and a fresh load's entry shares the
 * key `default` with whatever the tab loaded before.
 */
export function ScrollRestorer() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const firstRender = useRef(true);
  useLayoutEffect(() => {
    const first = firstRender.current;
    firstRender.current = false;
    if (location.hash) return undefined;
    const restore = navigationType === 'POP' && (!first || documentCameBack());
    const saved = restore ? savedPositions()[location.key] : undefined;
    if (saved) return scrollWhenTallEnough(saved);
    window.scrollTo(0, 0);
    return undefined;
  }, [location.key, location.hash, navigationType]);
  // A layout effect: its cleanup runs in the commit that changes the route, before the browser
  // reports the clamp of the shorter next page as a scroll of this entry.
  useLayoutEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        remember(location.key, window.scrollY);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [location.key]);
  return null;
}
