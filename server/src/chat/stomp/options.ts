import { DEFAULT_LIMITS, type FrameLimits } from './frame.js';
import type { StompSession } from './session.js';
import type { TransactionLimits } from './transactions.js';

/** Who a session belongs to, as the authenticate hook established it. */
export interface StompPrincipal {
  userId: number;
  tokenVersion: number;
  /** The student's campus (features.md §E): the session's frames are handled as its work. */
  campusId: number;
  /** When the credential expires (epoch ms): the session is closed then. */
  expiresAt?: number;
}

/** Time and timers a session uses; tests inject a manual clock instead of sleeping. */
export interface StompTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: StompTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface StompHooks {
  /** Resolves the principal from the CONNECT headers or throws (StompError for a client message). */
  authenticate(headers: Record<string, string>): Promise<StompPrincipal>;
  /** Throws (StompError) when the principal may not subscribe to the destination. */
  authorizeSubscribe(principal: StompPrincipal, destination: string): Promise<void> | void;
  /**
   * Handles a SEND; the receipt is sent after it resolves. Throws StompAppError to refuse it
   * without closing, anything else to answer ERROR and close.
   */
  onSend(
    session: StompSession,
    destination: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<void>;
  /**
   * Runs for every SEND as it arrives, before it is handled or buffered in a transaction (the
   * rate limit): throws StompAppError to refuse that frame (it is dropped), StompError to close.
   */
  admitSend?(session: StompSession, destination: string): void;
  /**
   * Runs after the session is registered (so a revocation from now on reaches it) and before
   * CONNECTED: throws (StompError) when the credential was revoked meanwhile.
   */
  revalidate?(principal: StompPrincipal): Promise<void>;
  /**
   * Runs the handling of one frame of an authenticated session (and `revalidate`) as work of its
   * principal: the chat module runs it in the student's campus, so every query a SUBSCRIBE, SEND,
   * COMMIT or extension handler makes is that campus's. Without it the work runs as it is.
   */
  scope?<T>(principal: StompPrincipal, work: () => Promise<T>): Promise<T>;
}

export interface StompLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SessionOptions {
  limits: FrameLimits;
  /** What this server offers in CONNECTED heart-beat: sx (can send every), sy (wants every), ms. */
  heartBeat: { outgoing: number; incoming: number };
  /** Close sockets that have not completed CONNECT within this time. */
  connectTimeoutMs: number;
  /** Terminate a client whose unsent data exceeds this (a reader that does not read). */
  maxBufferedBytes: number;
  /** Frames waiting for processing at most (a client that floods faster than we store). */
  maxQueuedFrames: number;
  serverName: string;
  /** A client that negotiated no incoming heart-beats and sends nothing for this long is closed. */
  idleTimeoutMs: number;
  /** Where application errors of a SEND are answered (STOMP_PATHS.errors). */
  errorsDestination: string;
  /** ERROR message sent when an idle client is closed. */
  idleMessage: string;
  timers: StompTimers;
  /** ERROR message sent when the principal's credential expires. */
  expiredMessage: string;
  /** SENDs held until COMMIT are server memory: bounded per session (ERROR and close past it). */
  transactions: TransactionLimits;
  logger?: StompLogger;
}

export const DEFAULT_SESSION_OPTIONS: SessionOptions = {
  limits: DEFAULT_LIMITS,
  heartBeat: { outgoing: 10_000, incoming: 10_000 },
  connectTimeoutMs: 10_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxQueuedFrames: 256,
  serverName: 'campus-market/1.0',
  idleTimeoutMs: 5 * 60_000,
  errorsDestination: '/user/queue/errors',
  idleMessage: 'Closed after 5 minutes without activity',
  timers: REAL_TIMERS,
  expiredMessage: 'Credentials expired',
  transactions: {
    maxOpen: 4,
    maxFrames: 20,
    maxBytes: 64 * 1024,
    tooManyMessage: 'Too many open transactions',
    tooLargeMessage: 'Transaction too large',
  },
};
