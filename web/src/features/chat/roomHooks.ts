import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LIMITS, type ChatMessage } from '@campus/contract';
import { chatDestinations, chatKeys, getOlderChatMessages, parseChatMessage } from '../../api/chat';
import { queryClient } from '../../api/queryClient';
import { acquireRealtime, loadAndCatchUp, subscribeRealtime } from '../../api/stomp';
import { mergeMessages } from './model';
import { ingestMessages, markRoomOpen, markRoomRead, roomMessagesQuery } from './store';

/** The conversation screen's data hooks: live history, older pages, and read marks. */

/** Keeps the room's history current: live MESSAGE frames, plus `?after=` catch-up on every (re)connect. */
export function useRoomMessages(roomId: string, seed: ChatMessage[] | undefined) {
  const query = useQuery({
    ...roomMessagesQuery(roomId),
    initialData: seed,
    // Opening with history in hand (the server's render, navigation state, the cache) catches up
    // with `?after=` its newest message — once, at the live link's connection when it is not up yet.
    refetchOnMount: false,
    refetchOnWindowFocus: true,
  });
  const { refetch } = query;

  useEffect(() => acquireRealtime(), []);
  useEffect(() => markRoomOpen(roomId), [roomId]);

  useEffect(() => {
    const unsubscribe = subscribeRealtime(chatDestinations.room(roomId), (body) => {
      const message = parseChatMessage(body);
      if (!message || message.roomId !== roomId) return;
      if (queryClient.getQueryData(chatKeys.messages(roomId)) === undefined) {
        // First load still running: it may have started before this message was stored.
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
      } else {
        ingestMessages(roomId, [message]);
      }
    });
    // At a connection the catch-up must start after the subscription: a request already running is
    // replaced. Opening with the link up, the first load (if running) is the catch-up.
    const offConnected = loadAndCatchUp((when) => void refetch({ cancelRefetch: when === 'connected' }));
    return () => {
      offConnected();
      unsubscribe();
    };
  }, [roomId, refetch]);

  return query;
}

/** Long histories arrive newest page first (200); older pages load on request (`?before=`). */
export function useOlderMessages(roomId: string, messages: readonly ChatMessage[] | undefined) {
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const first = messages?.[0];
  const available = !done && first !== undefined && (messages?.length ?? 0) >= LIMITS.chatPageDefault;
  const load = async () => {
    if (!first || loading) return;
    setLoading(true);
    try {
      const older = await getOlderChatMessages(roomId, first.id);
      if (older.length < LIMITS.chatPageDefault) setDone(true);
      queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(roomId), (old) =>
        mergeMessages(old ?? [], older),
      );
    } catch (error) {
      console.error('Could not load earlier messages', error);
    } finally {
      setLoading(false);
    }
  };
  return { available, loading, load };
}

/** Marks the room read on open and whenever a new message of the peer shows while the tab is visible. */
export function useMarkRead(
  roomId: string,
  messages: readonly ChatMessage[] | undefined,
  myId: number | null,
) {
  const marked = useRef(-1);
  let lastPeerId = 0;
  if (messages) {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.senderId !== myId) {
        lastPeerId = m.id;
        break;
      }
    }
  }
  const hasMessages = (messages?.length ?? 0) > 0;

  useEffect(() => {
    if (!hasMessages || myId === null) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      if (marked.current !== -1 && lastPeerId <= marked.current) return;
      marked.current = lastPeerId;
      markRoomRead(roomId).catch((error: unknown) => {
        marked.current = -1;
        console.error('Could not mark the chat read', error);
      });
    };
    // In a task of its own: opening the room already runs every effect of the screen in one.
    const first = window.setTimeout(mark, 0);
    document.addEventListener('visibilitychange', mark);
    return () => {
      window.clearTimeout(first);
      document.removeEventListener('visibilitychange', mark);
    };
  }, [roomId, lastPeerId, hasMessages, myId]);
}
