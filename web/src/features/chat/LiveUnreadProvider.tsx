import type { ReactNode } from 'react';
import { UnreadCountContext } from '../../ui/unread';
import { useLiveUnreadTotal } from './useChatRooms';

/** Provides the live total of unread chat messages to the top bar (and anything else that asks). */
export function LiveUnreadProvider({ children }: { children: ReactNode }) {
  const unread = useLiveUnreadTotal();
  return <UnreadCountContext value={unread}>{children}</UnreadCountContext>;
}
