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
 * Scroll restoration lives beside it: scroll-restorer.tsx.
 */
import {
  Component,
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useMemo,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { matchRoutes, Outlet, useLocation, useRoutes, type RouteObject } from 'react-router';
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
