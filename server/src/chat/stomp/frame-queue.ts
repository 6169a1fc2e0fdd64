import type { RawData } from 'ws';
import { CLOSE, StompError } from './errors.js';
import { StompFrameError, type FrameParser, type Frame } from './frame.js';

/** What the queue needs of its session. */
export interface FrameQueueSession {
  isOpen(): boolean;
  /** Handles one frame; its own errors are the session's to answer. */
  run(frame: Frame): Promise<void>;
  /** A protocol error of the stream itself: ERROR and close. */
  fail(err: StompError): void;
}

/**
 * Frames in: the socket's bytes parsed into frames, each handled strictly after the one before, so
 * SENDs from one client are stored and acknowledged in the order they were sent. At most
 * `maxQueued` frames wait; a client past that is sending without waiting for receipts.
 */
export class FrameQueue {
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly parser: FrameParser,
    private readonly maxQueued: number,
    private readonly session: FrameQueueSession,
  ) {}

  push(data: RawData): void {
    const chunk = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    let frames: Frame[];
    try {
      frames = this.parser.push(chunk).frames;
    } catch (err) {
      if (err instanceof StompFrameError) {
        this.session.fail(new StompError(err.message, `code: ${err.code}`, CLOSE.protocol));
        return;
      }
      throw err;
    }
    for (const frame of frames) {
      if (++this.queued > this.maxQueued) {
        this.session.fail(
          new StompError('Too many frames in flight', 'Wait for receipts before sending more', CLOSE.policy),
        );
        return;
      }
      this.chain = this.chain.then(async () => {
        this.queued--;
        if (!this.session.isOpen()) return;
        await this.session.run(frame);
      });
    }
  }
}
