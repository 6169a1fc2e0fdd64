import { randomBytes } from 'node:crypto';
import type { WebSocket, RawData } from 'ws';
import {
  DEFAULT_LIMITS,
  FrameParser,
  StompFrameError,
  header,
  headerRecord,
  serializeFrame,
  type Frame,
  type FrameLimits,
  type StompVersion,
} from './frame.js';
import { TransactionBuffer, type TransactionLimits, type TransactionRefusal } from './transactions.js';

/** Who a session belongs to, as the authenticate hook established it. */
export interface StompPrincipal {
  userId: number;
  tokenVersion: number;
  /** When the credential expires (epoch ms): the session is closed then. */
  expiresAt?: number;
}

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

export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  protocol: 1002,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
} as const;

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

const VERSIONS: readonly StompVersion[] = ['1.2', '1.1', '1.0'];
type AckMode = 'auto' | 'client' | 'client-individual';

interface Subscription {
  id: string;
  destination: string;
  ack: AckMode;
}

type State = 'awaiting-connect' | 'connected' | 'closed';

/** Reads `Authorization: Bearer <jwt>` (either case of the header name) from CONNECT headers. */
export function bearerToken(headers: Record<string, string>): string | null {
  const value = headers['Authorization'] ?? headers['authorization'];
  if (value === undefined) return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? (m[1] ?? null) : null;
}

/** Parses a heart-beat header "cx,cy"; null when malformed. */
export function parseHeartBeat(value: string | undefined): [number, number] | null {
  if (value === undefined) return [0, 0];
  const m = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!m) return null;
  return [Number(m[1]), Number(m[2])];
}

/**
 * Spec "Heart-beating": the client sends every max(cx, sy) when both are non-zero, the server
 * every max(sx, cy) when both are non-zero.
 */
export function negotiateHeartBeat(
  client: [number, number],
  server: { outgoing: number; incoming: number },
): { send: number; expect: number } {
  const [cx, cy] = client;
  return {
    send: server.outgoing > 0 && cy > 0 ? Math.max(server.outgoing, cy) : 0,
    expect: cx > 0 && server.incoming > 0 ? Math.max(cx, server.incoming) : 0,
  };
}

function pickVersion(acceptVersion: string | undefined, cap: StompVersion | null): StompVersion | null {
  const allowed = cap === null ? VERSIONS : VERSIONS.filter((v) => v <= cap);
  // Spec: a client that does not send accept-version speaks 1.0.
  const offered = acceptVersion === undefined ? ['1.0'] : acceptVersion.split(',').map((v) => v.trim());
  return allowed.find((v) => offered.includes(v)) ?? null;
}

function sanitizeHeaderValue(text: string): string {
  return text.replace(/[\r\n\0]+/g, ' ').slice(0, 200);
}

function transactionError(tx: string, refusal: TransactionRefusal): StompError {
  if (refusal.kind === 'unknown')
    return new StompError(`Unknown transaction ${tx}`, undefined, CLOSE.protocol);
  if (refusal.kind === 'duplicate')
    return new StompError(`Transaction ${tx} already begun`, undefined, CLOSE.protocol);
  return new StompError(refusal.message, refusal.detail, CLOSE.policy);
}

/** Commands that may carry a body (spec: "Frames and Headers"). */
const BODY_ALLOWED = new Set(['SEND']);

/**
 * One STOMP session over one WebSocket. Frames are handled strictly one after another, so SENDs
 * from one client are stored and acknowledged in the order they were sent.
 */
export class StompSession {
  readonly id = randomBytes(9).toString('base64url');
  principal: StompPrincipal | null = null;
  version: StompVersion = '1.2';
  private state: State = 'awaiting-connect';
  private readonly parser: FrameParser;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly transactions: TransactionBuffer;
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  private lastReceived: number;
  private lastSent: number;
  private timers = new Set<unknown>();
  private readonly clock: StompTimers;
  private ackCounter = 0;
  private readonly closeListeners: Array<(session: StompSession) => void> = [];
  private readonly connectListeners: Array<(session: StompSession) => void> = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly hooks: StompHooks,
    private readonly options: SessionOptions = DEFAULT_SESSION_OPTIONS,
    /** Version cap from the negotiated WebSocket sub-protocol, if any. */
    private readonly protocolVersion: StompVersion | null = null,
  ) {
    this.parser = new FrameParser(options.limits);
    this.transactions = new TransactionBuffer(options.transactions);
    this.clock = options.timers;
    this.lastReceived = this.lastSent = this.clock.now();
    ws.on('message', (data, isBinary) => this.onData(data, isBinary));
    ws.on('ping', () => this.touch());
    ws.on('pong', () => this.touch());
    ws.on('close', () => this.finish());
    ws.on('error', (err) => {
      this.options.logger?.warn({ err, session: this.id }, 'stomp socket error');
      this.finish();
    });
    this.after(options.connectTimeoutMs, () => {
      if (this.state === 'awaiting-connect')
        this.fail(new StompError('CONNECT expected', 'No CONNECT frame in time'));
    });
  }

  /** One-shot timer owned by the session (cleared when it closes). */
  private after(ms: number, fn: () => void): void {
    const handle = this.clock.setTimeout(() => {
      this.timers.delete(handle);
      fn();
    }, ms);
    this.timers.add(handle);
  }

  /** Repeating timer owned by the session. */
  private every(ms: number, fn: () => void): void {
    this.after(ms, () => {
      if (this.state === 'closed') return;
      fn();
      if (this.isOpen) this.every(ms, fn);
    });
  }

  get isOpen(): boolean {
    return this.state !== 'closed';
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  onClose(listener: (session: StompSession) => void): void {
    this.closeListeners.push(listener);
  }

  onConnect(listener: (session: StompSession) => void): void {
    this.connectListeners.push(listener);
  }

  /** Subscription ids of this session listening to `destination`. */
  subscribed(destination: string): boolean {
    for (const s of this.subscriptions.values()) if (s.destination === destination) return true;
    return false;
  }

  /**
   * Sends MESSAGE to every subscription of this session on `destination`. Returns how many frames
   * were sent.
   */
  deliver(destination: string, body: string, messageId: string, contentType = 'application/json'): number {
    if (this.state !== 'connected') return 0;
    let sent = 0;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== destination) continue;
      const headers: Array<readonly [string, string]> = [
        ['subscription', sub.id],
        ['message-id', messageId],
        ['destination', destination],
        ['content-type', contentType],
      ];
      if (sub.ack !== 'auto') headers.push(['ack', `${this.id}-${++this.ackCounter}`]);
      this.write(serializeFrame('MESSAGE', headers, body, { version: this.version }));
      sent++;
    }
    return sent;
  }

  /** Sends ERROR (when a message is given) and closes the socket. */
  close(code: number = CLOSE.normal, errorMessage?: string, detail?: string): void {
    if (this.state === 'closed') return;
    if (errorMessage !== undefined) this.sendError(errorMessage, detail);
    this.state = 'closed';
    this.stopTimers();
    this.ws.close(code, errorMessage ? sanitizeHeaderValue(errorMessage).slice(0, 120) : undefined);
    this.emitClose();
  }

  private touch(): void {
    this.lastReceived = this.clock.now();
  }

  private onData(data: RawData, _isBinary: boolean): void {
    this.touch();
    if (this.state === 'closed') return;
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
        this.fail(new StompError(err.message, `code: ${err.code}`, CLOSE.protocol));
        return;
      }
      throw err;
    }
    for (const frame of frames) {
      if (++this.queued > this.options.maxQueuedFrames) {
        this.fail(
          new StompError('Too many frames in flight', 'Wait for receipts before sending more', CLOSE.policy),
        );
        return;
      }
      this.chain = this.chain.then(async () => {
        this.queued--;
        if (this.state === 'closed') return;
        try {
          await this.handle(frame);
        } catch (err) {
          if (err instanceof StompAppError) this.refuse(err, frame);
          else this.fail(err, frame);
        }
      });
    }
  }

  private async handle(frame: Frame): Promise<void> {
    if (
      frame.body.length > 0 &&
      !BODY_ALLOWED.has(frame.command) &&
      frame.command !== 'CONNECT' &&
      frame.command !== 'STOMP'
    ) {
      throw new StompError(`${frame.command} frames must not have a body`, undefined, CLOSE.protocol);
    }
    if (this.state === 'awaiting-connect') {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP') {
        throw new StompError('CONNECT expected', `Received ${frame.command} before CONNECT`, CLOSE.protocol);
      }
      await this.connect(frame);
      return;
    }
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP':
        throw new StompError('Already connected', undefined, CLOSE.protocol);
      case 'SUBSCRIBE':
        await this.subscribe(frame);
        break;
      case 'UNSUBSCRIBE':
        this.subscriptions.delete(this.required(frame, 'id'));
        break;
      case 'SEND': {
        const destination = this.required(frame, 'destination');
        const tx = header(frame, 'transaction');
        if (tx !== undefined && !this.transactions.has(tx)) throw transactionError(tx, { kind: 'unknown' });
        // Charged as it arrives, buffered or not: a transaction is no way around the rate limit.
        this.hooks.admitSend?.(this, destination);
        if (tx !== undefined) {
          const refused = this.transactions.add(tx, frame);
          if (refused) throw transactionError(tx, refused);
          break;
        }
        await this.send(destination, frame);
        break;
      }
      case 'BEGIN': {
        const tx = this.required(frame, 'transaction');
        const refused = this.transactions.begin(tx);
        if (refused) throw transactionError(tx, refused);
        break;
      }
      case 'COMMIT': {
        const tx = this.required(frame, 'transaction');
        const pending = this.transactions.take(tx);
        if (!pending) throw transactionError(tx, { kind: 'unknown' });
        for (const f of pending) {
          try {
            await this.send(this.required(f, 'destination'), f);
          } catch (err) {
            if (!(err instanceof StompAppError)) throw err;
            this.refuse(err, f);
          }
        }
        break;
      }
      case 'ABORT': {
        const tx = this.required(frame, 'transaction');
        if (!this.transactions.abort(tx)) throw transactionError(tx, { kind: 'unknown' });
        break;
      }
      case 'ACK':
      case 'NACK':
        // Messages are persisted and fetched again with ?after=, so acknowledgements need no state.
        if (this.version === '1.2') this.required(frame, 'id');
        else if (this.version === '1.1') {
          this.required(frame, 'subscription');
          this.required(frame, 'message-id');
        } else this.required(frame, 'message-id');
        break;
      case 'DISCONNECT':
        this.receipt(frame);
        this.close(CLOSE.normal);
        return;
      default:
        throw new StompError(`${frame.command} is not a client frame`, undefined, CLOSE.protocol);
    }
    this.receipt(frame);
  }

  private async connect(frame: Frame): Promise<void> {
    const headers = headerRecord(frame.headers);
    const version = pickVersion(headers['accept-version'], this.protocolVersion);
    if (version === null) {
      const supported = (
        this.protocolVersion ? VERSIONS.filter((v) => v <= this.protocolVersion!) : VERSIONS
      ).join(',');
      this.write(
        serializeFrame(
          'ERROR',
          {
            version: supported,
            'content-type': 'text/plain',
            message: 'Supported protocol versions are ' + supported,
          },
          '',
          { version: '1.0' },
        ),
      );
      this.close(CLOSE.protocol);
      return;
    }
    const clientBeat = parseHeartBeat(headers['heart-beat']);
    if (clientBeat === null) throw new StompError('Malformed heart-beat header', undefined, CLOSE.protocol);

    let principal: StompPrincipal;
    try {
      principal = await this.hooks.authenticate(headers);
    } catch (err) {
      if (err instanceof StompError) throw err;
      this.options.logger?.error({ err, session: this.id }, 'stomp authenticate failed');
      throw new StompError('Authentication failed');
    }
    if (this.state === 'closed') return;
    this.principal = principal;
    this.version = version;
    this.parser.version = version;
    // Register first (the server may refuse: too many sessions), then check the credential again:
    // a revocation committed before this check is seen here, one committed after it finds the
    // session registered and closes it.
    for (const listener of this.connectListeners) listener(this);
    if (this.hooks.revalidate) await this.hooks.revalidate(principal);
    // A revocation may have closed it meanwhile (isOpen: TypeScript's narrowing cannot see that).
    if (!this.isOpen) return;
    this.state = 'connected';
    const { outgoing, incoming } = this.options.heartBeat;
    this.write(
      serializeFrame(
        'CONNECTED',
        {
          version,
          'heart-beat': `${outgoing},${incoming}`,
          server: this.options.serverName,
          session: this.id,
        },
        '',
        { version },
      ),
    );
    this.startHeartBeats(negotiateHeartBeat(clientBeat, this.options.heartBeat));
    if (principal.expiresAt !== undefined) {
      this.after(Math.min(2 ** 31 - 1, Math.max(0, principal.expiresAt - this.clock.now())), () =>
        this.close(CLOSE.policy, this.options.expiredMessage),
      );
    }
  }

  private async subscribe(frame: Frame): Promise<void> {
    const id = this.required(frame, 'id');
    const destination = this.required(frame, 'destination');
    const ack = header(frame, 'ack') ?? 'auto';
    if (ack !== 'auto' && ack !== 'client' && ack !== 'client-individual') {
      throw new StompError(`Unknown ack mode ${ack}`, undefined, CLOSE.protocol);
    }
    if (this.subscriptions.has(id))
      throw new StompError(`Subscription id ${id} is already in use`, undefined, CLOSE.protocol);
    try {
      await this.hooks.authorizeSubscribe(this.principal!, destination);
    } catch (err) {
      if (err instanceof StompError) throw err;
      this.options.logger?.error({ err, session: this.id }, 'stomp authorizeSubscribe failed');
      throw new StompError('Subscription refused');
    }
    if (this.state !== 'connected') return;
    this.subscriptions.set(id, { id, destination, ack });
  }

  private async send(destination: string, frame: Frame): Promise<void> {
    const body = frame.body.toString('utf8');
    await this.hooks.onSend(this, destination, body, headerRecord(frame.headers));
  }

  private required(frame: Frame, name: string): string {
    const value = header(frame, name);
    if (value === undefined || value === '') {
      throw new StompError(
        `Missing header: ${name}`,
        `${frame.command} requires a ${name} header`,
        CLOSE.protocol,
      );
    }
    return value;
  }

  private receipt(frame: Frame): void {
    const receipt = header(frame, 'receipt');
    if (receipt === undefined || this.state === 'closed') return;
    this.write(serializeFrame('RECEIPT', [['receipt-id', receipt]], '', { version: this.version }));
  }

  /** An application refusal: MESSAGE on the errors destination, no RECEIPT, the session stays. */
  private refuse(err: StompAppError, frame: Frame): void {
    if (this.state !== 'connected') return;
    const body: StompAppErrorBody = {
      message: err.message,
      code: err.code,
      receiptId: header(frame, 'receipt') ?? null,
    };
    this.deliver(this.options.errorsDestination, JSON.stringify(body), `error-${++this.ackCounter}`);
  }

  private sendError(message: string, detail?: string, frame?: Frame): void {
    const headers: Array<readonly [string, string]> = [['message', sanitizeHeaderValue(message)]];
    const receipt = frame ? header(frame, 'receipt') : undefined;
    if (receipt !== undefined) headers.push(['receipt-id', receipt]);
    const body = detail ?? '';
    if (body) headers.push(['content-type', 'text/plain']);
    // Before CONNECTED the client has not agreed on escaping: send plain values.
    const version = this.state === 'connected' ? this.version : '1.0';
    this.write(serializeFrame('ERROR', headers, body, { version }));
  }

  private fail(err: unknown, frame?: Frame): void {
    if (this.state === 'closed') return;
    if (err instanceof StompError) {
      this.sendError(err.message, err.detail, frame);
      this.close(err.closeCode);
      return;
    }
    this.options.logger?.error({ err, session: this.id }, 'stomp frame handling failed');
    this.sendError('Internal server error', undefined, frame);
    this.close(CLOSE.internal);
  }

  private write(data: Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.options.logger?.warn({ session: this.id }, 'stomp client too slow, terminating');
      this.state = 'closed';
      this.stopTimers();
      this.ws.terminate();
      this.emitClose();
      return;
    }
    this.lastSent = this.clock.now();
    // Our frames are UTF-8 text (JSON bodies), so text WebSocket messages.
    this.ws.send(data, { binary: false });
  }

  private startHeartBeats({ send, expect }: { send: number; expect: number }): void {
    if (send > 0) {
      this.every(send, () => {
        if (this.clock.now() - this.lastSent >= send / 2 && this.ws.readyState === this.ws.OPEN) {
          this.lastSent = this.clock.now();
          this.ws.send('\n');
        }
      });
    }
    this.lastReceived = this.clock.now();
    if (expect > 0) {
      this.every(Math.max(50, Math.floor(expect / 2)), () => {
        if (this.clock.now() - this.lastReceived > expect * 2) {
          this.options.logger?.warn({ session: this.id }, 'stomp heart-beat missed, dropping');
          this.state = 'closed';
          this.stopTimers();
          this.ws.terminate();
          this.emitClose();
        }
      });
    } else {
      // No heart-beats agreed (e.g. `heart-beat: 0,0`): a client silent for idleTimeoutMs is gone.
      this.watchIdle();
    }
  }

  private watchIdle(): void {
    const idle = this.options.idleTimeoutMs;
    this.after(Math.max(1, this.lastReceived + idle - this.clock.now()), () => {
      if (this.state === 'closed') return;
      if (this.clock.now() - this.lastReceived >= idle) this.close(CLOSE.policy, this.options.idleMessage);
      else this.watchIdle();
    });
  }

  private stopTimers(): void {
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers.clear();
  }

  private finish(): void {
    if (this.state !== 'closed') {
      this.state = 'closed';
      this.stopTimers();
      this.emitClose();
    }
  }

  private closeEmitted = false;
  private emitClose(): void {
    if (this.closeEmitted) return;
    this.closeEmitted = true;
    this.subscriptions.clear();
    this.transactions.clear();
    for (const listener of this.closeListeners) listener(this);
  }
}
