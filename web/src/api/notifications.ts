import type { NotificationPage, NotificationSettings } from '@campus/contract';
import { api, apiRequest } from './client';

/** Notification centre, settings and web push (features.md §D). */

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => ['notifications', 'list'] as const,
  settings: () => ['notifications', 'settings'] as const,
};

export function listNotifications(before?: number, signal?: AbortSignal): Promise<NotificationPage> {
  return api.get<NotificationPage>('/notifications', { query: { before, limit: 20 }, signal });
}

export function markNotificationsRead(upTo: number): Promise<{ unreadCount: number }> {
  return api.post('/notifications/read', { upTo });
}

export function getNotificationSettings(signal?: AbortSignal): Promise<NotificationSettings> {
  return api.get<NotificationSettings>('/users/me/notification-settings', { signal });
}

export function putNotificationSettings(
  kinds: Partial<NotificationSettings['kinds']>,
): Promise<NotificationSettings> {
  return api.put<NotificationSettings>('/users/me/notification-settings', { kinds });
}

export function getPushKey(): Promise<{ publicKey: string }> {
  return api.get<{ publicKey: string }>('/public/push-key');
}

export function savePushSubscription(subscription: PushSubscriptionJSON): Promise<unknown> {
  return api.post('/push/subscriptions', subscription);
}

export function deletePushSubscription(endpoint: string): Promise<unknown> {
  return apiRequest('/push/subscriptions', { method: 'DELETE', body: { endpoint } });
}

export function getChatPresence(
  roomId: string,
): Promise<{ roomId: string; peerLastReadMessageId: number | null }> {
  return api.get(`/api/chats/${encodeURIComponent(roomId)}/presence`);
}
