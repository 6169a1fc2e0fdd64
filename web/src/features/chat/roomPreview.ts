import type { ChatMessage } from '@campus/contract';
import { systemText } from '../deals/systemWords';
import { messagePreview } from './model';

/**
 * The inbox's one-line preview of a room's last message. A deal's system line is told to its reader
 * as the chat tells it ("You accepted Omar's offer of $40…" rather than the server's neutral "Maya
 * accepted the offer of $40…"): the inbox's last message carries its offer or meet-up for that.
 */
export function roomPreview(message: ChatMessage | null, myId: number | null, peerFirstName: string): string {
  if (message?.kind !== 'system') return messagePreview(message);
  return messagePreview({ ...message, content: systemText(message, myId, peerFirstName) });
}
