import { createContext, useContext } from 'react';

/**
 * Unread notifications for the bell in the top bar (features.md §D). The notifications feature
 * provides it (live over STOMP); 0 hides the badge.
 */
export const NotificationCountContext = createContext<number>(0);

export function useNotificationCount(): number {
  return useContext(NotificationCountContext);
}
