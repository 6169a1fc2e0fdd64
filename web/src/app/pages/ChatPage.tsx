import { ChatScreen } from '../../features/chat/pages/ChatScreen';
import type { RoomKind } from '../../features/chat/roomKinds';
import { dealRoomKind } from '../../features/deals/chatRoom';

/**
 * The chat page as the app composes it: the chat, with the kinds of message other features render
 * in it (deals: offer and meet-up cards, system lines, the deal bar). Wired here, so neither
 * feature imports the other's page; fixed for the page's life (each kind is a hook).
 */
const ROOM_KINDS: readonly RoomKind[] = [dealRoomKind];

export default function ChatPage() {
  return <ChatScreen kinds={ROOM_KINDS} />;
}
