import { createContext, useContext } from 'react';

/**
 * Number of unread chat messages shown as a badge on "Chats" in the top bar.
 * The chat feature provides it (wrap the app layout in `<UnreadCountContext value={n}>`); 0 hides the badge.
 */
export const UnreadCountContext = createContext<number>(0);

export function useUnreadCount(): number {
  return useContext(UnreadCountContext);
}
