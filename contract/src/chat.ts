import { isDbId } from './ids.js';
import type { Meetup, Offer } from './deals.js';

/** Limits of the realtime chat, shared by the server and the docs (docs/stomp.md). */
/**
 * What a chat message is: typed text, an offer or meetup card, or a system event (features.md §A).
 * Here, not in deals.ts: the chat list of every logged-in page reads it, and deals.ts holds schemas
 * (a module importing Zod brings it into that page's first JavaScript).
 */
export const MESSAGE_KINDS = ['text', 'offer', 'meetup', 'system'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const CHAT_LIMITS = {
  /** Open STOMP sessions per student (per app process). */
  maxSessionsPerStudent: 20,
  /** SENDs per second per student, with bursts of this many. */
  sendPerSecond: 5,
  sendBurst: 20,
  /** Sockets per IP address that have not sent CONNECT yet. */
  maxPendingSocketsPerIp: 16,
  connectDeadlineMs: 10_000,
  /** A client that negotiated `heart-beat: 0,0` and sends nothing for this long is closed. */
  idleTimeoutMs: 5 * 60_000,
  /** An uploaded chat photo that was never sent is removed after this long. */
  unsentPhotoTtlMs: 24 * 60 * 60_000,
  /**
   * STOMP transactions hold their SENDs in server memory until COMMIT: at most this many open at
   * once per session, each with at most this many SENDs and body bytes (past any: ERROR, close).
   * A transaction of more SENDs than one rate-limit burst could never be stored whole anyway.
   */
  maxTransactionsPerSession: 4,
  maxTransactionFrames: 20,
  maxTransactionBytes: 64 * 1024,
} as const;

export const CHAT_LIMIT_MESSAGES = {
  tooManySessions: 'Too many open sessions. Close a tab and try again.',
  sendRateLimited: 'You are sending messages too fast. Wait a moment and try again.',
  idleClosed: 'Closed after 5 minutes without activity',
  photoNotYours: 'Attach photos with the upload button',
  malformedMultipart: 'The upload could not be read. Choose the photo again and retry.',
  numberOutOfRange: 'That number is too large',
  tooManyTransactions: 'Too many open transactions. Commit or abort one before you begin another.',
  transactionTooLarge: 'This transaction is too large. Commit it and send the rest in another one.',
  noConversation: 'Typing is shown once one of you has sent a message in this conversation',
  controlCharacter: 'Messages cannot contain the invisible character U+0000. Remove it and send again.',
} as const;

/** Body of a MESSAGE on `/user/queue/errors`: a SEND refused for an application reason. */
export interface ChatErrorBody {
  message: string;
  code: string;
  /** The refused SEND's `receipt` header (null when it had none). */
  receiptId: string | null;
}

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
