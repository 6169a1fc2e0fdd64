import { z } from './zod.js';
import { LIMITS } from './limits.js';
import { CHAT_HARDENING_MESSAGES, DB_INT_MAX, isDbId } from './chat-hardening.js';
import { MESSAGES } from './messages.js';
import type { Meetup, MessageKind, Offer } from './deals.js';

/** A chat message as stored and delivered (no e-mail addresses: design §3). */
export interface ChatMessage {
  id: number;
  roomId: string;
  content: string;
  url: string | null;
  senderId: number;
  sentAt: string;
  listingId: number | null;
  /** 'text' for every message a student types (features.md §A); older clients can ignore it. */
  kind: MessageKind;
  /** kind 'offer' (and 'system' about an offer): the offer, in its current state in history. */
  offer?: Offer;
  /** kind 'meetup' (and 'system' about a meet-up): the meet-up, in its current state in history. */
  meetup?: Meetup;
  /**
   * Anti-scam flags (features.md §C, safety.ts SCAM_FLAGS): present only on the recipient's copy,
   * never on the sender's.
   */
  flags?: string[];
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
  // Ids beyond the database's integer range name no room (same answer on SQLite and PostgreSQL).
  return low < high && isDbId(low) && isDbId(high) ? [low, high] : null;
}

/** Body of SEND /app/chat.send/{buyerId}/{sellerId} (spec §7). */
export const chatSendSchema = z
  .object({
    // U+0000: PostgreSQL text cannot hold it; refused alike on both databases.
    content: z
      .string()
      .max(LIMITS.chatContentMax, MESSAGES.chatContentTooLong)
      .refine((s) => !s.includes('\u0000'), CHAT_HARDENING_MESSAGES.controlCharacter)
      .optional()
      .default(''),
    listingId: z.coerce
      .number({ error: MESSAGES.chatListingRequired })
      .int()
      .positive(MESSAGES.chatListingRequired)
      .max(DB_INT_MAX, MESSAGES.chatListingRequired),
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
  /** SENDs refused for an application reason; body is a ChatErrorBody (the session stays open). */
  errors: '/user/queue/errors',
  /**
   * `{type: "resync"}` when this process may have missed live messages (its link to the other
   * processes was down): fetch each open conversation again with `?after=`.
   */
  resync: '/user/queue/resync',
} as const;
