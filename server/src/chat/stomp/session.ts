import { randomBytes } from 'node:crypto';
import type { WebSocket, RawData } from 'ws';
import { FrameQueue } from './frame-queue.js';
import { FrameParser, header, headerRecord, type Frame, type StompVersion } from './frame.js';
import { CLOSE, StompAppError, StompError, transactionError, type StompAppErrorBody } from './errors.js';
import { negotiateHeartBeat, parseHeartBeat, pickVersion, supportedVersions } from './handshake.js';
import { HeartBeats } from './heart-beats.js';
import { assertBodyAllowed, checkAckHeaders, requiredHeader } from './inbound.js';
import {
  DEFAULT_SESSION_OPTIONS,
  type SessionOptions,
  type StompHooks,
  type StompPrincipal,
} from './options.js';
import {
  connectedFrame,
  errorFrame,
  messageFrame,
  receiptFrame,
  sanitizeHeaderValue,
  unsupportedVersionFrame,
} from './outbound.js';
import { Subscriptions, parseAckMode } from './subscriptions.js';
import { TransactionBuffer } from './transactions.js';

// The session's vocabulary, for the server, the chat module and the tests, from one place.
export { CLOSE, StompAppError, StompError, type StompAppErrorBody } from './errors.js';
export { bearerToken, negotiateHeartBeat, parseHeartBeat } from './handshake.js';
export {
  DEFAULT_SESSION_OPTIONS,
  REAL_TIMERS,
  type SessionOptions,
  type StompHooks,
  type StompLogger,
  type StompPrincipal,
  type StompTimers,
} from './options.js';

type State = 'awaiting-connect' | 'connected' | 'closed';

/**
 * One STOMP session over one WebSocket: frames in (parsed and queued in frame-queue.ts, handled
 * here strictly one after another) and frames out (MESSAGE, RECEIPT, ERROR, with back-pressure).
 * Subscriptions, heart-beats and open transactions each live in their own file.
 */
export class StompSession {
  readonly id = randomBytes(9).toString('base64url');
  principal: StompPrincipal | null = null;
  version: StompVersion = '1.2';
  private state: State = 'awaiting-connect';
  private readonly parser: FrameParser;
  private readonly subscriptions = new Subscriptions();
  private readonly transactions: TransactionBuffer;
  private readonly beats: HeartBeats;
  private readonly inbound: FrameQueue;
  private ackCounter = 0;
  private closeEmitted = false;
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
    this.inbound = new FrameQueue(this.parser, options.maxQueuedFrames, {
      isOpen: () => this.isOpen,
      run: (frame) => this.run(frame),
      fail: (err) => this.fail(err),
    });
    this.transactions = new TransactionBuffer(options.transactions);
    this.beats = new HeartBeats(options.timers);
    ws.on('message', (data, isBinary) => this.onData(data, isBinary));
    ws.on('ping', () => this.beats.received());
    ws.on('pong', () => this.beats.received());
    ws.on('close', () => this.finish());
    ws.on('error', (err) => {
      this.options.logger?.warn({ err, session: this.id }, 'stomp socket error');
      this.finish();
    });
    this.beats.after(options.connectTimeoutMs, () => {
      if (this.state === 'awaiting-connect')
        this.fail(new StompError('CONNECT expected', 'No CONNECT frame in time'));
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

  /** Whether this session has a subscription listening to `destination`. */
  subscribed(destination: string): boolean {
    return this.subscriptions.listensTo(destination);
  }

  /**
   * Sends MESSAGE to every subscription of this session on `destination`. Returns how many frames
   * were sent.
   */
  deliver(destination: string, body: string, messageId: string, contentType = 'application/json'): number {
    if (this.state !== 'connected') return 0;
    let sent = 0;
    for (const sub of this.subscriptions.on(destination)) {
      const ack = sub.ack !== 'auto' ? `${this.id}-${++this.ackCounter}` : undefined;
      this.write(
        messageFrame(this.version, { subscription: sub.id, messageId, destination, contentType, ack }, body),
      );
      sent++;
    }
    return sent;
  }

  /** Sends ERROR (when a message is given) and closes the socket. */
  close(code: number = CLOSE.normal, errorMessage?: string, detail?: string): void {
    if (this.state === 'closed') return;
    if (errorMessage !== undefined) this.sendError(errorMessage, detail);
    this.state = 'closed';
    this.beats.stop();
    this.ws.close(code, errorMessage ? sanitizeHeaderValue(errorMessage).slice(0, 120) : undefined);
    this.emitClose();
  }

  // ---- frames in ----

  private onData(data: RawData, _isBinary: boolean): void {
    this.beats.received();
    if (this.state === 'closed') return;
    this.inbound.push(data);
  }

  /** One frame, in its turn: an application refusal keeps the session, anything else ends it. */
  private async run(frame: Frame): Promise<void> {
    try {
      await this.asPrincipal(() => this.handle(frame));
    } catch (err) {
      if (err instanceof StompAppError) this.refuse(err, frame);
      else this.fail(err, frame);
    }
  }

  /** Runs `work` as work of the session's principal once there is one (StompHooks.scope). */
  private asPrincipal<T>(work: () => Promise<T>): Promise<T> {
    const principal = this.principal;
    return principal && this.hooks.scope ? this.hooks.scope(principal, work) : work();
  }

  private async handle(frame: Frame): Promise<void> {
    assertBodyAllowed(frame);
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
        this.subscriptions.remove(requiredHeader(frame, 'id'));
        break;
      case 'SEND': {
        const destination = requiredHeader(frame, 'destination');
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
        const tx = requiredHeader(frame, 'transaction');
        const refused = this.transactions.begin(tx);
        if (refused) throw transactionError(tx, refused);
        break;
      }
      case 'COMMIT': {
        const tx = requiredHeader(frame, 'transaction');
        const pending = this.transactions.take(tx);
        if (!pending) throw transactionError(tx, { kind: 'unknown' });
        for (const f of pending) {
          try {
            await this.send(requiredHeader(f, 'destination'), f);
          } catch (err) {
            if (!(err instanceof StompAppError)) throw err;
            this.refuse(err, f);
          }
        }
        break;
      }
      case 'ABORT': {
        const tx = requiredHeader(frame, 'transaction');
        if (!this.transactions.abort(tx)) throw transactionError(tx, { kind: 'unknown' });
        break;
      }
      case 'ACK':
      case 'NACK':
        checkAckHeaders(frame, this.version);
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
      this.write(unsupportedVersionFrame(supportedVersions(this.protocolVersion)));
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
    const revalidate = this.hooks.revalidate;
    if (revalidate) await this.asPrincipal(() => revalidate.call(this.hooks, principal));
    // A revocation may have closed it meanwhile (isOpen: TypeScript's narrowing cannot see that).
    if (!this.isOpen) return;
    this.state = 'connected';
    this.write(connectedFrame(version, this.options.heartBeat, this.options.serverName, this.id));
    this.beats.start(negotiateHeartBeat(clientBeat, this.options.heartBeat), this.options.idleTimeoutMs, {
      isOpen: () => this.isOpen,
      beat: () => {
        if (this.ws.readyState !== this.ws.OPEN) return false;
        this.ws.send('\n');
        return true;
      },
      drop: () => this.terminate('stomp heart-beat missed, dropping'),
      closeIdle: () => this.close(CLOSE.policy, this.options.idleMessage),
    });
    if (principal.expiresAt !== undefined) {
      this.beats.after(
        Math.min(2 ** 31 - 1, Math.max(0, principal.expiresAt - this.options.timers.now())),
        () => this.close(CLOSE.policy, this.options.expiredMessage),
      );
    }
  }

  private async subscribe(frame: Frame): Promise<void> {
    const id = requiredHeader(frame, 'id');
    const destination = requiredHeader(frame, 'destination');
    const ack = parseAckMode(header(frame, 'ack'));
    this.subscriptions.assertFree(id);
    try {
      await this.hooks.authorizeSubscribe(this.principal!, destination);
    } catch (err) {
      if (err instanceof StompError) throw err;
      this.options.logger?.error({ err, session: this.id }, 'stomp authorizeSubscribe failed');
      throw new StompError('Subscription refused');
    }
    if (this.state !== 'connected') return;
    this.subscriptions.add({ id, destination, ack });
  }

  private async send(destination: string, frame: Frame): Promise<void> {
    const body = frame.body.toString('utf8');
    await this.hooks.onSend(this, destination, body, headerRecord(frame.headers));
  }

  // ---- frames out ----

  private receipt(frame: Frame): void {
    const receipt = header(frame, 'receipt');
    if (receipt === undefined || this.state === 'closed') return;
    this.write(receiptFrame(this.version, receipt));
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
    const receipt = frame ? header(frame, 'receipt') : undefined;
    // Before CONNECTED the client has not agreed on escaping: send plain values.
    const version = this.state === 'connected' ? this.version : '1.0';
    this.write(errorFrame(version, message, detail, receipt));
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
      this.terminate('stomp client too slow, terminating');
      return;
    }
    this.beats.sent();
    // Our frames are UTF-8 text (JSON bodies), so text WebSocket messages.
    this.ws.send(data, { binary: false });
  }

  // ---- end of the session ----

  /** Drops the socket without a last frame (the client is not reading or not there). */
  private terminate(reason: string): void {
    this.options.logger?.warn({ session: this.id }, reason);
    this.state = 'closed';
    this.beats.stop();
    this.ws.terminate();
    this.emitClose();
  }

  private finish(): void {
    if (this.state !== 'closed') {
      this.state = 'closed';
      this.beats.stop();
      this.emitClose();
    }
  }

  private emitClose(): void {
    if (this.closeEmitted) return;
    this.closeEmitted = true;
    this.subscriptions.clear();
    this.transactions.clear();
    for (const listener of this.closeListeners) listener(this);
  }
}
