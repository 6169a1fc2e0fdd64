import type { TransactionRefusal } from './transactions.js';

/** WebSocket close codes a session uses after its last frame. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  protocol: 1002,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
} as const;

/**
 * An error the client should see: `message` goes into the ERROR frame's message header, `detail`
 * into its body. Anything else thrown by a hook becomes a generic message (details only logged).
 */
export class StompError extends Error {
  override readonly name = 'StompError';
  constructor(
    message: string,
    readonly detail?: string,
    /** WebSocket close code used after the ERROR frame. */
    readonly closeCode: number = CLOSE.policy,
  ) {
    super(message);
  }
}

/**
 * A SEND refused for an application reason (not a member, blank, too long, rate limit…): the
 * session answers a MESSAGE on the errors destination with `{message, code, receiptId}`, sends no
 * RECEIPT, and stays open. Protocol errors stay StompErrors (ERROR, then close).
 */
export class StompAppError extends Error {
  override readonly name = 'StompAppError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The body of a MESSAGE on the errors destination. */
export interface StompAppErrorBody {
  message: string;
  code: string;
  /** The `receipt` header of the refused frame, or null when it had none. */
  receiptId: string | null;
}

/** The protocol error for a refused BEGIN, SEND in a transaction, COMMIT or ABORT. */
export function transactionError(tx: string, refusal: TransactionRefusal): StompError {
  if (refusal.kind === 'unknown')
    return new StompError(`Unknown transaction ${tx}`, undefined, CLOSE.protocol);
  if (refusal.kind === 'duplicate')
    return new StompError(`Transaction ${tx} already begun`, undefined, CLOSE.protocol);
  return new StompError(refusal.message, refusal.detail, CLOSE.policy);
}
