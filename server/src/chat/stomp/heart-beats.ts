import type { StompTimers } from './options.js';

/** What the heart-beat watch asks of its session. */
export interface HeartBeatTarget {
  isOpen(): boolean;
  /** Sends a heart-beat (a bare EOL) if the socket can take it; false when it cannot. */
  beat(): boolean;
  /** The client stopped beating: drop it without an ERROR (it is not listening). */
  drop(): void;
  /** The client negotiated no heart-beats and went silent: close it with an ERROR. */
  closeIdle(): void;
}

/**
 * A session's timers and its liveness (spec "Heart-beating"): when frames last went each way, the
 * beats it sends, the beats it expects, and the idle watch for a client that agreed to none. Every
 * timer belongs to the session and is cleared when it closes.
 */
export class HeartBeats {
  private lastReceived: number;
  private lastSent: number;
  private readonly handles = new Set<unknown>();

  constructor(private readonly clock: StompTimers) {
    this.lastReceived = this.lastSent = clock.now();
  }

  /** Anything arrived from the client (a frame, a beat, a WebSocket ping or pong). */
  received(): void {
    this.lastReceived = this.clock.now();
  }

  /** A frame went out: no beat is due for a while. */
  sent(): void {
    this.lastSent = this.clock.now();
  }

  /** One-shot timer owned by the session (cleared when it closes). */
  after(ms: number, fn: () => void): void {
    const handle = this.clock.setTimeout(() => {
      this.handles.delete(handle);
      fn();
    }, ms);
    this.handles.add(handle);
  }

  /** Starts the negotiated beats once CONNECTED is sent (send/expect in ms, 0 = none). */
  start(
    { send, expect }: { send: number; expect: number },
    idleTimeoutMs: number,
    target: HeartBeatTarget,
  ): void {
    if (send > 0) {
      this.every(send, target, () => {
        if (this.clock.now() - this.lastSent >= send / 2 && target.beat()) this.lastSent = this.clock.now();
      });
    }
    this.lastReceived = this.clock.now();
    if (expect > 0) {
      this.every(Math.max(50, Math.floor(expect / 2)), target, () => {
        if (this.clock.now() - this.lastReceived > expect * 2) target.drop();
      });
    } else {
      // No heart-beats agreed (e.g. `heart-beat: 0,0`): a client silent for idleTimeoutMs is gone.
      this.watchIdle(idleTimeoutMs, target);
    }
  }

  stop(): void {
    for (const t of this.handles) this.clock.clearTimeout(t);
    this.handles.clear();
  }

  /** Repeating timer owned by the session. */
  private every(ms: number, target: HeartBeatTarget, fn: () => void): void {
    this.after(ms, () => {
      if (!target.isOpen()) return;
      fn();
      if (target.isOpen()) this.every(ms, target, fn);
    });
  }

  private watchIdle(idle: number, target: HeartBeatTarget): void {
    this.after(Math.max(1, this.lastReceived + idle - this.clock.now()), () => {
      if (!target.isOpen()) return;
      if (this.clock.now() - this.lastReceived >= idle) target.closeIdle();
      else this.watchIdle(idle, target);
    });
  }
}
