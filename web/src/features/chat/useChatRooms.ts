import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { chatDestinations, chatKeys, listChatRooms, parseChatMessage } from '../../api/chat';
import { queryClient } from '../../api/queryClient';
import {
  acquireRealtime,
  onRealtimeAuthFailure,
  onRealtimeConnected,
  subscribeRealtime,
} from '../../api/stomp';
import { useCurrentUser } from '../../session/useCurrentUser';
import { applyMessageToRooms, ingestMessages, totalUnread } from './store';
// The outbox must be loaded wherever realtime runs: it sends queued messages on reconnect.
import './outbox';

/** Poll of GET /api/chats behind the live updates (new rooms, other devices reading). */
const ROOMS_POLL_MS = 15_000;

/** GET /api/chats, newest activity first; polled and refreshed on focus. */
export function useChatRooms(enabled = true) {
  return useQuery({
    queryKey: chatKeys.rooms(),
    queryFn: ({ signal }) => listChatRooms(signal),
    enabled,
    staleTime: 5_000,
    refetchInterval: ROOMS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/**
 * The app-wide realtime link of a logged-in student: keeps the one STOMP connection up, listens to
 * every message of every room of theirs (`/user/queue/chats`) and keeps the room summaries (inbox
 * rows, unread counts) current at once; the 15 s poll covers the rest. Returns the total unread
 * count for the top bar.
 */
export function useLiveUnreadTotal(): number {
  const { userId } = useCurrentUser();
  const myId = useRef(userId);
  useEffect(() => {
    myId.current = userId;
  }, [userId]);

  const rooms = useChatRooms();

  useEffect(() => {
    const release = acquireRealtime();
    const unsubscribe = subscribeRealtime(chatDestinations.inbox, (body) => {
      const message = parseChatMessage(body);
      if (!message) return;
      ingestMessages(message.roomId, [message]);
      applyMessageToRooms(message, myId.current);
    });
    // After a (re)connect, whatever arrived meanwhile is in GET /api/chats.
    const offConnected = onRealtimeConnected(() => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.rooms() });
    });
    // A refused token: this call answers 401 and the API client takes the student to /login.
    const offAuth = onRealtimeAuthFailure(() => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.rooms() });
    });
    return () => {
      offAuth();
      offConnected();
      unsubscribe();
      release();
    };
  }, []);

  return totalUnread(rooms.data);
}
