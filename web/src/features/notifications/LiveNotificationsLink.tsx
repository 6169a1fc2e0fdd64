import { useEffect } from 'react';
import { NOTIFY_STOMP_PATHS, type AppNotification } from '@campus/contract';
import { listNotifications, notificationKeys } from '../../api/notifications';
import { queryClient } from '../../api/queryClient';
import { acquireRealtime, loadAndCatchUp, subscribeRealtime } from '../../api/stomp';

type Frame =
  | { type: 'notification'; notification: AppNotification; unreadCount: number }
  | { type: 'read'; upTo: number; unreadCount: number };

/**
 * Keeps the bell current: the count from GET /notifications, then every frame on
 * /user/queue/notifications (new ones, and reads from the student's other tabs); after a reconnect
 * the count is fetched again (frames may have been missed while offline).
 */
export default function LiveNotificationsLink({ onCount }: { onCount: (count: number) => void }) {
  useEffect(() => {
    let alive = true;
    const refresh = () => {
      listNotifications()
        .then((page) => alive && onCount(page.unreadCount))
        .catch(() => undefined);
    };
    const release = acquireRealtime();
    const unsubscribe = subscribeRealtime(NOTIFY_STOMP_PATHS.notifications, (body) => {
      let frame: Frame;
      try {
        frame = JSON.parse(body) as Frame;
      } catch {
        return;
      }
      onCount(frame.unreadCount);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
    });
    const offConnected = loadAndCatchUp(refresh);
    return () => {
      alive = false;
      offConnected();
      unsubscribe();
      release();
    };
  }, [onCount]);
  return null;
}
