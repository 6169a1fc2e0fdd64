import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StompVersion } from './frame.js';
import {
  CLOSE,
  DEFAULT_SESSION_OPTIONS,
  StompSession,
  type SessionOptions,
  type StompHooks,
  type StompPrincipal,
} from './session.js';

export interface StompServerOptions {
  hooks: StompHooks;
  /** Origins (scheme://host[:port]) allowed to open the socket; requests without Origin pass. */
  allowedOrigins: readonly string[];
  /**
   * Also allow a browser Origin whose host:port is the Host the request was sent to (same origin,
   * whichever name the page was opened under). Default true.
   */
  allowSameHost?: boolean;
  path?: string;
  /** Largest WebSocket message accepted, bytes (frames are limited separately, and smaller). */
  maxPayload?: number;
  session?: Partial<SessionOptions>;
}

/** Sub-protocols in order of preference, and the STOMP version each one caps the session at. */
const SUB_PROTOCOLS: ReadonlyArray<readonly [string, StompVersion]> = [
  ['v12.stomp', '1.2'],
  ['v11.stomp', '1.1'],
  ['v10.stomp', '1.0'],
];

function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

function reject(socket: Duplex, status: number, text: string): void {
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  socket.destroy();
}

/**
 * The STOMP endpoint: accepts WebSocket upgrades on `path`, runs one StompSession per socket, and
 * keeps a registry of connected sessions by user so that the chat service can deliver to every
 * session of a user and close the sessions of a user whose tokens were revoked.
 */
export class StompServer {
  readonly path: string;
  private readonly wss: WebSocketServer;
  private readonly sessionOptions: SessionOptions;
  private readonly allowed: Set<string>;
  private readonly byUser = new Map<number, Set<StompSession>>();
  private readonly sessions = new Set<StompSession>();
  private closing = false;
  private attachedTo: Server | null = null;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    this.upgrade(req, socket, head);

  constructor(private readonly options: StompServerOptions) {
    this.path = options.path ?? '/ws';
    this.sessionOptions = {
      ...DEFAULT_SESSION_OPTIONS,
      ...options.session,
      limits: { ...DEFAULT_SESSION_OPTIONS.limits, ...options.session?.limits },
      heartBeat: { ...DEFAULT_SESSION_OPTIONS.heartBeat, ...options.session?.heartBeat },
    };
    this.allowed = new Set(
      options.allowedOrigins.map(normalizeOrigin).filter((o): o is string => o !== null),
    );
    this.wss = new WebSocketServer({
      noServer: true,
      // Room for a maximal frame plus a few heart-beats; frame limits are enforced by the parser,
      // which answers ERROR where a payload cap could only drop the socket.
      maxPayload: options.maxPayload ?? this.sessionOptions.limits.maxFrameBytes * 2,
      perMessageDeflate: false,
      handleProtocols: (protocols) => {
        for (const [name] of SUB_PROTOCOLS) if (protocols.has(name)) return name;
        return false;
      },
    });
  }

  attach(server: Server): void {
    if (this.attachedTo) throw new Error('StompServer is already attached');
    this.attachedTo = server;
    server.on('upgrade', this.onUpgrade);
  }

  /** Number of open sockets (connected or not yet). */
  get size(): number {
    return this.sessions.size;
  }

  sessionsOf(userId: number): StompSession[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Delivers MESSAGE to every subscription on `destination` of every session of the user. */
  deliverToUser(userId: number, destination: string, body: string, messageId: string): number {
    let sent = 0;
    const set = this.byUser.get(userId);
    if (!set) return 0;
    for (const session of set) sent += session.deliver(destination, body, messageId);
    return sent;
  }

  /**
   * Closes the user's sessions (all, or those `which` selects), with an ERROR frame carrying
   * `message`. Used when a password change revokes the user's tokens.
   */
  closeUser(
    userId: number,
    message: string,
    which: (principal: StompPrincipal) => boolean = () => true,
  ): number {
    let closed = 0;
    for (const session of this.sessionsOf(userId)) {
      if (session.principal && which(session.principal)) {
        session.close(CLOSE.policy, message);
        closed++;
      }
    }
    return closed;
  }

  /** Stops accepting sockets and closes the open ones; terminates those that do not close in time. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closing = true;
    this.attachedTo?.off('upgrade', this.onUpgrade);
    const sockets = [...this.wss.clients];
    for (const session of [...this.sessions]) session.close(CLOSE.goingAway);
    await new Promise<void>((resolve) => {
      const pending = sockets.filter((ws) => ws.readyState !== ws.CLOSED);
      if (pending.length === 0) return resolve();
      let left = pending.length;
      const timer = setTimeout(() => {
        for (const ws of pending) ws.terminate();
        resolve();
      }, timeoutMs);
      timer.unref();
      for (const ws of pending) {
        ws.once('close', () => {
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== this.path) {
      // Leave other paths to other upgrade handlers; refuse when there are none.
      if (this.attachedTo && this.attachedTo.listenerCount('upgrade') <= 1) reject(socket, 404, 'Not Found');
      return;
    }
    if (this.closing) return reject(socket, 503, 'Service Unavailable');
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!this.originAllowed(origin, req.headers.host)) return reject(socket, 403, 'Forbidden');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private originAllowed(origin: string, host: string | undefined): boolean {
    const normalized = normalizeOrigin(origin);
    if (normalized === null) return false;
    if (this.allowed.has(normalized)) return true;
    return (
      this.options.allowSameHost !== false &&
      host !== undefined &&
      new URL(normalized).host === host.toLowerCase()
    );
  }

  private accept(ws: WebSocket): void {
    const cap = SUB_PROTOCOLS.find(([name]) => name === ws.protocol)?.[1] ?? null;
    const session = new StompSession(ws, this.options.hooks, this.sessionOptions, cap);
    this.sessions.add(session);
    session.onConnect((s) => {
      const userId = s.principal!.userId;
      let set = this.byUser.get(userId);
      if (!set) this.byUser.set(userId, (set = new Set()));
      set.add(s);
    });
    session.onClose((s) => {
      this.sessions.delete(s);
      if (s.principal) {
        const set = this.byUser.get(s.principal.userId);
        set?.delete(s);
        if (set && set.size === 0) this.byUser.delete(s.principal.userId);
      }
    });
  }
}
