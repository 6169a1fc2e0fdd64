import type { ChatMessage, ChatRoomSummary } from '@campus/contract';
import { chatKeys, getChatHistory, markChatRead } from '../../api/chat';
import { queryClient } from '../../api/queryClient';
import { mergeMessages } from './model';

/**
 * Client-side chat state shared by the chat screen, the inbox and the top-bar badge, kept in the
 * TanStack Query cache: ['chats','rooms'] (GET /api/chats) and ['chats','room',id,'messages'].
 */

type ReconcileHook = (roomId: string, messages: readonly ChatMessage[]) => void;
let reconcileHook: ReconcileHook | null = null;

/** The outbox registers how stored messages retire its pending bubbles (kept apart to avoid a cycle). */
export function setReconcileHook(hook: ReconcileHook): void {
  reconcileHook = hook;
}

/**
 * Stored messages arrived (live MESSAGE or HTTP catch-up): merge them into the room's cached
 * history, by id, and retire the pending bubbles they confirm. A room whose history was never
 * loaded is left alone (its first load fetches everything).
 */
export function ingestMessages(roomId: string, messages: readonly ChatMessage[]): void {
  if (messages.length === 0) return;
  const key = chatKeys.messages(roomId);
  if (queryClient.getQueryData<ChatMessage[]>(key) !== undefined) {
    queryClient.setQueryData<ChatMessage[]>(key, (old) => mergeMessages(old ?? [], messages));
  }
  reconcileHook?.(roomId, messages);
}

/** Largest known message id of a room (0 when none). */
export function lastKnownMessageId(roomId: string): number {
  const cached = queryClient.getQueryData<ChatMessage[]>(chatKeys.messages(roomId));
  return cached?.[cached.length - 1]?.id ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Rooms open on screen: their new messages are read at once, so they do not count as unread.

const openRooms = new Map<string, number>();

/** The chat screen declares its room open while mounted; returns the undo function. */
export function markRoomOpen(roomId: string): () => void {
  openRooms.set(roomId, (openRooms.get(roomId) ?? 0) + 1);
  return () => {
    const n = (openRooms.get(roomId) ?? 1) - 1;
    if (n <= 0) openRooms.delete(roomId);
    else openRooms.set(roomId, n);
  };
}

export function isRoomOnScreen(roomId: string): boolean {
  return openRooms.has(roomId) && document.visibilityState === 'visible';
}

// ---------------------------------------------------------------------------------------------
// Room summaries (inbox rows, unread badge).

/** A live message updates its room's summary at once; an unknown room means a new one: refetch. */
export function applyMessageToRooms(message: ChatMessage, myId: number | null): void {
  const rooms = queryClient.getQueryData<ChatRoomSummary[]>(chatKeys.rooms());
  if (!rooms) return;
  const index = rooms.findIndex((r) => r.id === message.roomId);
  const room = rooms[index];
  if (!room) {
    void queryClient.invalidateQueries({ queryKey: chatKeys.rooms() });
    return;
  }
  if (room.lastMessage && room.lastMessage.id >= message.id) return; // already counted
  const fromPeer = myId !== null && message.senderId !== myId;
  const updated: ChatRoomSummary = {
    ...room,
    lastMessage: message,
    messageCount: room.messageCount + 1,
    unreadCount: fromPeer && !isRoomOnScreen(room.id) ? room.unreadCount + 1 : room.unreadCount,
  };
  queryClient.setQueryData<ChatRoomSummary[]>(chatKeys.rooms(), [
    updated,
    ...rooms.slice(0, index),
    ...rooms.slice(index + 1),
  ]);
}

/** Marks a room read on the server and zeroes its unread count here. */
export async function markRoomRead(roomId: string): Promise<void> {
  const zero = () =>
    queryClient.setQueryData<ChatRoomSummary[]>(chatKeys.rooms(), (rooms) =>
      rooms?.map((r) => (r.id === roomId && r.unreadCount !== 0 ? { ...r, unreadCount: 0 } : r)),
    );
  zero();
  try {
    await markChatRead(roomId);
  } finally {
    // A poll that started before the read landed would bring the old count back: refetch.
    await queryClient.cancelQueries({ queryKey: chatKeys.rooms() });
    zero();
    void queryClient.invalidateQueries({ queryKey: chatKeys.rooms() });
  }
}

export function totalUnread(rooms: readonly ChatRoomSummary[] | undefined): number {
  if (!rooms) return 0;
  let total = 0;
  for (const r of rooms) total += Math.max(0, r.unreadCount);
  return total;
}

/**
 * Loads a room's history into the cache: everything the first time, then only what is newer than
 * the last known message (`?after=`), merged by id. Used on open, on every (re)connect and on focus.
 */
export async function loadRoomMessages(roomId: string, signal?: AbortSignal): Promise<ChatMessage[]> {
  const key = chatKeys.messages(roomId);
  const cached = queryClient.getQueryData<ChatMessage[]>(key);
  const last = cached?.[cached.length - 1];
  const fetched = await getChatHistory(roomId, { after: last?.id, signal });
  reconcileHook?.(roomId, fetched);
  // Read the cache again: live messages may have arrived while this request ran.
  return mergeMessages(queryClient.getQueryData<ChatMessage[]>(key) ?? [], fetched);
}

export function roomMessagesQuery(roomId: string) {
  return {
    queryKey: chatKeys.messages(roomId),
    queryFn: ({ signal }: { signal?: AbortSignal }) => loadRoomMessages(roomId, signal),
    staleTime: 0,
  };
}
