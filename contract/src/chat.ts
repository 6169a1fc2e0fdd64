import { z } from 'zod';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';

/** A chat message as stored and delivered (no e-mail addresses: design §3). */
export interface ChatMessage {
  id: number;
  roomId: string;
  content: string;
  url: string | null;
  senderId: number;
  sentAt: string;
  listingId: number | null;
}

export interface ChatRoomSummary {
  id: string;
  roomKey: string;
  buyerId: number;
  sellerId: number;
  listingId: number | null;
  messageCount: number;
  unreadCount: number;
  lastMessage: ChatMessage | null;
  peer: { id: number; firstName: string; lastName: string };
  listing: { id: number; name: string; thumbnailUrl: string | null } | null;
}

/** Room id = smaller user id, colon, larger user id (spec §3). */
export function roomIdFor(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

export function parseRoomId(roomId: string): [number, number] | null {
  const m = /^(\d{1,15}):(\d{1,15})$/.exec(roomId);
  if (!m) return null;
  const low = Number(m[1]);
  const high = Number(m[2]);
  return low < high ? [low, high] : null;
}

/** Body of SEND /app/chat.send/{buyerId}/{sellerId} (spec §7). */
export const chatSendSchema = z
  .object({
    content: z.string().max(LIMITS.chatContentMax, MESSAGES.chatContentTooLong).optional().default(''),
    listingId: z.coerce
      .number({ error: MESSAGES.chatListingRequired })
      .int()
      .positive(MESSAGES.chatListingRequired),
    url: z.string().max(500).nullish(),
  })
  .refine((m) => m.content.trim().length > 0 || !!m.url, { message: MESSAGES.chatContentRequired });
export type ChatSendPayload = z.input<typeof chatSendSchema>;

/** STOMP destinations (spec §7). */
export const STOMP_PATHS = {
  endpoint: '/ws',
  subscribePrefix: '/user/queue/chat/',
  sendPrefix: '/app/chat.send/',
  /** Every message of every room of the caller (live unread badges); body is a ChatMessage. */
  inbox: '/user/queue/chats',
} as const;
