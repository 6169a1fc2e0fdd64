import type { Frame } from './frame.js';

export interface TransactionLimits {
  /** Transactions begun and not yet committed or aborted. */
  maxOpen: number;
  /** SENDs buffered in one transaction. */
  maxFrames: number;
  /** Body bytes of the SENDs buffered in one transaction. */
  maxBytes: number;
  /** ERROR message past maxOpen. */
  tooManyMessage: string;
  /** ERROR message past maxFrames or maxBytes. */
  tooLargeMessage: string;
}

/** Why a transaction operation was refused; the session turns it into ERROR and close. */
export type TransactionRefusal =
  { kind: 'unknown' } | { kind: 'duplicate' } | { kind: 'limit'; message: string; detail: string };

interface Pending {
  frames: Frame[];
  bytes: number;
}

/**
 * The SENDs of a session's open STOMP transactions, held in memory until COMMIT or ABORT. Every
 * held byte is server memory a client chose to park, so the number of transactions, and the SENDs
 * and body bytes of each, are bounded.
 */
export class TransactionBuffer {
  private readonly open = new Map<string, Pending>();

  constructor(private readonly limits: TransactionLimits) {}

  has(tx: string): boolean {
    return this.open.has(tx);
  }

  begin(tx: string): TransactionRefusal | null {
    if (this.open.has(tx)) return { kind: 'duplicate' };
    if (this.open.size >= this.limits.maxOpen) {
      return {
        kind: 'limit',
        message: this.limits.tooManyMessage,
        detail: `At most ${this.limits.maxOpen} open transactions per session`,
      };
    }
    this.open.set(tx, { frames: [], bytes: 0 });
    return null;
  }

  add(tx: string, frame: Frame): TransactionRefusal | null {
    const pending = this.open.get(tx);
    if (!pending) return { kind: 'unknown' };
    const { maxFrames, maxBytes } = this.limits;
    if (pending.frames.length >= maxFrames || pending.bytes + frame.body.length > maxBytes) {
      return {
        kind: 'limit',
        message: this.limits.tooLargeMessage,
        detail: `At most ${maxFrames} SENDs and ${maxBytes} body bytes per transaction`,
      };
    }
    pending.frames.push(frame);
    pending.bytes += frame.body.length;
    return null;
  }

  /** Removes the transaction and answers its SENDs in order (COMMIT), or null when unknown. */
  take(tx: string): Frame[] | null {
    const pending = this.open.get(tx);
    if (!pending) return null;
    this.open.delete(tx);
    return pending.frames;
  }

  abort(tx: string): boolean {
    return this.open.delete(tx);
  }

  clear(): void {
    this.open.clear();
  }
}
