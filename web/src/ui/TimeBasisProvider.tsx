import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { LiveClockContext, rendersWithServerBasis } from './timeBasis';

/**
 * Renders its tree with the server's time basis while a server-rendered page is taken over (so
 * hydration finds the server's text), then switches to the student's own clock, zone and locale in
 * a transition: the times are drawn again in slices the browser can interrupt, not in one long
 * task, and a part of the page still waiting for its code keeps the server's markup until then.
 */
export function TimeBasisProvider({ children }: { children: ReactNode }) {
  const [live, setLive] = useState(() => !rendersWithServerBasis());
  useEffect(() => {
    if (!live) startTransition(() => setLive(true));
  }, [live]);
  return <LiveClockContext value={live}>{children}</LiveClockContext>;
}
