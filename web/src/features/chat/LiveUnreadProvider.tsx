import { isServer } from '../../ssr/request';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { UnreadCountContext } from '../../ui/unread';
import { useUnreadTitle } from '../../ui/useDocumentTitle';

/**
 * The realtime link is loaded as its own chunk after the page's first render: the STOMP client, the
 * chat store and the outbox are not needed to draw a first screen, so they stay out of the entry
 * chunk (and off the critical path of every logged-in page). The badge shows 0 until it is there.
 */
const LiveUnreadLink = lazy(() => import('./LiveUnreadLink'));

/** Provides the live total of unread chat messages to the top bar (and anything else that asks). */
export function LiveUnreadProvider({ children }: { children: ReactNode }) {
  const [unread, setUnread] = useState(0);
  useUnreadTitle(unread);
  return (
    <UnreadCountContext value={unread}>
      {children}
      {/* The live link starts in the browser; the server renders the empty boundary it hydrates. */}
      <Suspense fallback={null}>{isServer ? null : <LiveUnreadLink onTotal={setUnread} />}</Suspense>
    </UnreadCountContext>
  );
}
