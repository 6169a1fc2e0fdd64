import type { ComponentType, ReactNode } from 'react';
import type { ChatMessage } from '@campus/contract';

/** What the chat tells a room kind about the open conversation. */
export interface RoomState {
  roomId: string;
  /** The listing the next message is about; null until it is known. */
  listingId: number | null;
  /** The thread so far (empty while the history loads). */
  messages: readonly ChatMessage[];
  /** The history has loaded. */
  loaded: boolean;
  myId: number | null;
  peerId: number | null;
  /** The other student's first name, as cards say it. */
  peerFirstName: string;
  /** Sends a text message as the viewer (quick replies); missing until the chat can send. */
  send?: (content: string) => void;
}

/** What a room kind adds to the open conversation, on each render. */
export interface RoomParts {
  /** A message of a kind it owns (a card, a system line) as an <li>; null leaves it to the bubble. */
  renderMessage(message: ChatMessage): ReactNode | null;
  /** The conversation's listing was deleted: the header links to no listing. */
  listingGone: boolean;
  /** Pinned under the chat header (deals: the item and the viewer's next step). */
  belowHeader?: ReactNode;
  /** The listing belowHeader shows: the header does not name it a second time. */
  pinnedListingId?: number | null;
  /** Shown between the thread and the composer. */
  aboveComposer: ReactNode;
}

/**
 * A kind of message another feature owns and renders in the chat (deals: offer and meet-up cards,
 * system lines, the deal bar). The app shell hands the chat page its list (app/pages/ChatPage.tsx),
 * so the chat never imports the features that extend it.
 */
export interface RoomKind {
  /** A hook, called on every render of a conversation. */
  useRoom(room: RoomState): RoomParts;
  /** What the chat can show for a room while offline, before it loads (deals: saved hand-off codes). */
  Offline?: ComponentType<{ userId: number | null; roomId: string | null }>;
}

/** Every room kind's parts for this render, and one renderer for the messages they own. */
export function useRoomParts(kinds: readonly RoomKind[], room: RoomState) {
  // The list is fixed for the page's life (the app shell's constant), so these hooks run in the
  // same order on every render, as the rules of hooks require.
  const parts = kinds.map((kind) => kind.useRoom(room));
  const renderMessage = (message: ChatMessage): ReactNode | null => {
    for (const part of parts) {
      const node = part.renderMessage(message);
      if (node !== null) return node;
    }
    return null;
  };
  const pinned = new Set(parts.flatMap((p) => (p.pinnedListingId == null ? [] : [p.pinnedListingId])));
  return { parts, renderMessage, listingGone: parts.some((p) => p.listingGone), pinned };
}

/** What the room kinds show for a room while offline. */
export function OfflineRoomParts({
  kinds,
  userId,
  roomId,
}: {
  kinds: readonly RoomKind[];
  userId: number | null;
  roomId: string | null;
}) {
  return kinds.map(({ Offline }, i) =>
    Offline ? <Offline key={i} userId={userId} roomId={roomId} /> : null,
  );
}
