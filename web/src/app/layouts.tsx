import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../api/client';
import { LiveUnreadProvider } from '../features/chat/LiveUnreadProvider';
import { NotificationsProvider } from '../features/notifications/NotificationsProvider';
import { RequireAuth } from '../session/RequireAuth';
import { useRouteHandles } from './routing';
import { ScrollRestorer } from './scroll-restorer';
import { PublicHeader } from '../ui/PublicHeader';
import { TabBar } from '../ui/TabBar';
import { PageSpinner } from '../ui/Spinner';
import { TopBar } from '../ui/TopBar';

/** Route `handle` understood by the layouts. */
export interface RouteHandle {
  /** Header above the page: the logged-in top bar, the public header, or none (full-screen pages). */
  chrome?: 'app' | 'public' | 'none';
}

function useChrome(fallback: NonNullable<RouteHandle['chrome']>): NonNullable<RouteHandle['chrome']> {
  const handles = useRouteHandles();
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i] as RouteHandle | undefined;
    if (handle?.chrome) return handle.chrome;
  }
  return fallback;
}

function SkipLink() {
  return (
    <a href="#main" className="skip-link">
      Skip to content
    </a>
  );
}

/** Root: scroll restoration and the 401 → /login redirect of the API client. */
export function RootLayout() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const { pathname, search, hash } = window.location;
      if (pathname === '/login') return;
      navigate('/login', { replace: true, state: { from: { pathname, search, hash } } });
    });
  }, [navigate]);
  return (
    <>
      <ScrollRestorer />
      <Outlet />
    </>
  );
}

function Frame({ header, footer, children }: { header: ReactNode; footer?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      {header}
      {/* Nothing hides behind the phone tab bar: the page ends above it (0 without one). */}
      <div className="flex flex-1 flex-col pb-[var(--tab-bar-space)]">{children}</div>
      {footer}
    </div>
  );
}

/** Public screens (/signup, /login, /resetPass, /verify). */
export function PublicLayout() {
  const chrome = useChrome('public');
  return (
    <Frame header={chrome === 'none' ? null : <PublicHeader />}>
      <Outlet />
    </Frame>
  );
}

// A shared listing's page for someone not logged in: its own chunk, loaded only by such a visit.
const SharedListingVisitorPage = lazy(() => import('../features/listings/pages/SharedListingVisitorPage'));

/**
 * A shared listing link opened without a session shows the listing's preview and the way in
 * (docs/decisions.md "Sharing and link previews"); every other guarded path goes to /login.
 */
function visitorScreen(pathname: string): ReactNode {
  if (!/^\/single_listing\/[^/]+\/?$/i.test(pathname)) return null;
  return (
    <Frame header={<PublicHeader />}>
      <Suspense fallback={<PageSpinner />}>
        <SharedListingVisitorPage />
      </Suspense>
    </Frame>
  );
}

/**
 * Screens behind the login guard (spec §2), with the logged-in top bar (and the tab bar on phones).
 * While logged in, the live chat link (one STOMP connection) keeps their unread counts current.
 */
export function AppLayout() {
  const chrome = useChrome('app');
  return (
    <RequireAuth visitor={visitorScreen}>
      <LiveUnreadProvider>
        <NotificationsProvider>
          <Frame
            header={chrome === 'none' ? null : chrome === 'public' ? <PublicHeader /> : <TopBar />}
            // The phone tab bar goes with the top bar: not on full-screen pages (a chat room, whose
            // composer needs the bottom of the screen) nor on public ones.
            footer={chrome === 'app' ? <TabBar /> : null}
          >
            <Outlet />
          </Frame>
        </NotificationsProvider>
      </LiveUnreadProvider>
    </RequireAuth>
  );
}
