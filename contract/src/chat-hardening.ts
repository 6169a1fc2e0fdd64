import { z } from './zod.js';

/** Limits of the realtime chat (issue 8 #10), shared by the server and the docs. */
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

export const CHAT_HARDENING_MESSAGES = {
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

/** Largest value of a PostgreSQL `integer` column (ids, counters): validated before any query. */
export const DB_INT_MAX = 2_147_483_647;

/** A whole number a PostgreSQL `integer` column holds as an id or amount: 1..DB_INT_MAX. */
export const isDbId = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= DB_INT_MAX;

/** A database id as it arrives in a path, query or body: a whole number 1..DB_INT_MAX. */
export const dbIdSchema = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(DB_INT_MAX, message);
