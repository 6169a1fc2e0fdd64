import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  NOTIFICATION_LIMITS,
  NOTIFY_STOMP_PATHS,
  type ChatMessage,
  type PresenceFrame,
} from '@campus/contract';
import { getChatPresence } from '../../api/notifications';
import { loadAndCatchUp, sendRealtime, subscribeRealtime } from '../../api/stomp';

/** How long "typing…" stays after the last typing frame (frames come at most every 3 s). */
const TYPING_SHOWN_MS = 5000;

/**
 * "{name} is typing…" and "Seen" for one conversation (features.md §D chat presence): typing
 * frames and the other party's read marker arrive on /user/queue/presence; nothing is stored here.
 */
export function ChatPresenceLine({
  roomId,
  myId,
  messages,
  peerName,
}: {
  roomId: string;
  myId: number | null;
  messages: readonly ChatMessage[];
  peerName: string;
}) {
  const [peerRead, setPeerRead] = useState<number | null>(null);
  const [typing, setTyping] = useState(false);
  const typingTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    let alive = true;
    const load = () =>
      getChatPresence(roomId)
        .then((p) => alive && setPeerRead((r) => Math.max(r ?? 0, p.peerLastReadMessageId ?? 0) || null))
        .catch(() => undefined);
    const off = loadAndCatchUp(() => void load());
    const unsubscribe = subscribeRealtime(NOTIFY_STOMP_PATHS.presence, (body) => {
      let frame: PresenceFrame;
      try {
        frame = JSON.parse(body) as PresenceFrame;
      } catch {
        return;
      }
      if (frame.roomId !== roomId || frame.userId === myId) return;
      if (frame.type === 'typing') {
        setTyping(true);
        window.clearTimeout(typingTimer.current);
        typingTimer.current = window.setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
      } else setPeerRead((r) => Math.max(r ?? 0, frame.lastReadMessageId));
    });
    return () => {
      alive = false;
      off();
      unsubscribe();
      window.clearTimeout(typingTimer.current);
    };
  }, [roomId, myId]);

  const last = messages[messages.length - 1];
  // A message from the peer ends their typing.
  useEffect(() => {
    if (last && last.senderId !== myId) setTyping(false);
  }, [last, myId]);

  const seen = last !== undefined && last.senderId === myId && peerRead !== null && peerRead >= last.id;
  let content: ReactNode = null;
  if (typing) content = <span className="text-slate-700 italic">{peerName} is typing…</span>;
  else if (seen) content = <span className="ml-auto text-slate-600">Seen</span>;
  return (
    <div
      aria-live="polite"
      className="flex min-h-6 items-center px-4 text-xs sm:px-6"
      data-testid="chat-presence"
    >
      {content}
    </div>
  );
}

/** Returns an input handler that tells the other party "typing", at most once per 3 s. */
export function useTypingSignal(roomId: string | null): () => void {
  const last = useRef(0);
  return useCallback(() => {
    if (!roomId) return;
    const now = Date.now();
    if (now - last.current < NOTIFICATION_LIMITS.typingIntervalMs) return;
    last.current = now;
    sendRealtime(`${NOTIFY_STOMP_PATHS.typingPrefix}${roomId}`, '').catch(() => undefined);
  }, [roomId]);
}
