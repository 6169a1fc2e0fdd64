import { isServer } from '../../ssr/request';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { NotificationCountContext } from '../../ui/notificationCount';

/** The live link (STOMP subscription, count fetch) is its own chunk, loaded after the first render. */
const LiveNotificationsLink = lazy(() => import('./LiveNotificationsLink'));

/** Provides the live unread-notification count to the bell (every logged-in page). */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [count, setCount] = useState(0);
  return (
    <NotificationCountContext value={count}>
      {children}
      {/* The live link starts in the browser; the server renders the empty boundary it hydrates. */}
      <Suspense fallback={null}>{isServer ? null : <LiveNotificationsLink onCount={setCount} />}</Suspense>
    </NotificationCountContext>
  );
}
