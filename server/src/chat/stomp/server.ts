import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StompVersion } from './frame.js';
import {
  CLOSE,
  DEFAULT_SESSION_OPTIONS,
  StompError,
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
  /** Open sessions per user on this process; one more CONNECT gets ERROR `tooManySessionsMessage`. */
  maxSessionsPerUser?: number;
  tooManySessionsMessage?: string;
  /** Sockets per client IP that have not completed CONNECT yet; more are refused with 429. */
  maxPendingPerIp?: number;
  /**
   * The client address that cap counts (default: the socket's peer). Behind a reverse proxy every
   * socket comes from the proxy, so the app passes the address the proxy forwards (TRUST_PROXY).
   */
  clientAddress?: (req: IncomingMessage) => string;
  /** Longest stretch of delivery work before yielding to the event loop (ms). */
  deliverySliceMs?: number;
}

export const STOMP_SERVER_DEFAULTS = {
  maxSessionsPerUser: 20,
  tooManySessionsMessage: 'Too many open sessions. Close a tab and try again.',
  maxPendingPerIp: 16,
  deliverySliceMs: 5,
} as const;

/** Sessions of one user served synchronously when no delivery is queued (cheap, keeps order). */
const SYNC_DELIVERY_MAX = 64;

/** One MESSAGE for every session of a user, delivered in slices (see StompServer.drain). */
interface DeliveryJob {
  sessions: StompSession[];
  next: number;
  destination: string;
  body: string;
  messageId: string;
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
  private readonly pendingByIp = new Map<string, number>();
  private readonly deliveries: DeliveryJob[] = [];
  private draining = false;
  private readonly limits: Required<
    Pick<
      StompServerOptions,
      'maxSessionsPerUser' | 'tooManySessionsMessage' | 'maxPendingPerIp' | 'deliverySliceMs'
    >
  >;
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
    this.limits = {
      maxSessionsPerUser: options.maxSessionsPerUser ?? STOMP_SERVER_DEFAULTS.maxSessionsPerUser,
      tooManySessionsMessage: options.tooManySessionsMessage ?? STOMP_SERVER_DEFAULTS.tooManySessionsMessage,
      maxPendingPerIp: options.maxPendingPerIp ?? STOMP_SERVER_DEFAULTS.maxPendingPerIp,
      deliverySliceMs: options.deliverySliceMs ?? STOMP_SERVER_DEFAULTS.deliverySliceMs,
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

  /** Told the user's number of connected sessions on this process whenever it changes (presence). */
  readonly sessionListeners: Array<(userId: number, count: number) => void> = [];

  private sessionsChanged(userId: number, count: number): void {
    for (const listener of this.sessionListeners) listener(userId, count);
  }

  /** Users with at least one session on this process. */
  connectedUsers(): number[] {
    return [...this.byUser.keys()];
  }

  sessionsOf(userId: number): StompSession[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /**
   * Queues MESSAGE to every subscription on `destination` of every session of the user. Delivery
   * runs in slices of at most `deliverySliceMs`, yielding to the event loop in between, so a user
   * with thousands of sessions never stalls other requests; jobs run in order, so each session
   * still sees messages in the order they were stored. Returns how many sessions are queued.
   */
  deliverToUser(userId: number, destination: string, body: string, messageId: string): number {
    const set = this.byUser.get(userId);
    if (!set || set.size === 0) return 0;
    // The common case (a few tabs, nothing queued ahead) is delivered at once, in order.
    if (this.deliveries.length === 0 && set.size <= SYNC_DELIVERY_MAX) {
      for (const session of set) session.deliver(destination, body, messageId);
      return set.size;
    }
    this.deliveries.push({ sessions: [...set], next: 0, destination, body, messageId });
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
    return set.size;
  }

  private drain(): void {
    const deadline = performance.now() + this.limits.deliverySliceMs;
    while (this.deliveries.length > 0) {
      const job = this.deliveries[0]!;
      while (job.next < job.sessions.length) {
        job.sessions[job.next++]!.deliver(job.destination, job.body, job.messageId);
        if ((job.next & 31) === 0 && performance.now() >= deadline) {
          setImmediate(() => this.drain());
          return;
        }
      }
      this.deliveries.shift();
    }
    this.draining = false;
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
    const ip = this.options.clientAddress?.(req) ?? req.socket.remoteAddress ?? 'unknown';
    if ((this.pendingByIp.get(ip) ?? 0) >= this.limits.maxPendingPerIp) {
      return reject(socket, 429, 'Too Many Requests');
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!this.originAllowed(origin, req.headers.host)) return reject(socket, 403, 'Forbidden');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, ip));
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

  private accept(ws: WebSocket, ip: string): void {
    const cap = SUB_PROTOCOLS.find(([name]) => name === ws.protocol)?.[1] ?? null;
    const session = new StompSession(ws, this.options.hooks, this.sessionOptions, cap);
    this.sessions.add(session);
    // Counted as pending until it is registered or closes, whichever comes first.
    this.pendingByIp.set(ip, (this.pendingByIp.get(ip) ?? 0) + 1);
    let pending = true;
    const settle = () => {
      if (!pending) return;
      pending = false;
      const left = (this.pendingByIp.get(ip) ?? 1) - 1;
      if (left <= 0) this.pendingByIp.delete(ip);
      else this.pendingByIp.set(ip, left);
    };
    session.onConnect((s) => {
      const userId = s.principal!.userId;
      let set = this.byUser.get(userId);
      if (!set) this.byUser.set(userId, (set = new Set()));
      if (set.size >= this.limits.maxSessionsPerUser) {
        if (set.size === 0) this.byUser.delete(userId);
        throw new StompError(this.limits.tooManySessionsMessage, undefined, CLOSE.policy);
      }
      settle();
      set.add(s);
      this.sessionsChanged(userId, set.size);
    });
    session.onClose((s) => {
      settle();
      this.sessions.delete(s);
      if (s.principal) {
        const set = this.byUser.get(s.principal.userId);
        if (set?.delete(s)) this.sessionsChanged(s.principal.userId, set.size);
        if (set && set.size === 0) this.byUser.delete(s.principal.userId);
      }
    });
  }
}
