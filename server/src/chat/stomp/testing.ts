/**
 * Helpers for tests that talk STOMP to a real server: the stock @stomp/stompjs client (as browsers
 * use it), a raw `ws` client for frames stompjs would never send, and an echo server (the STOMP
 * server alone on a bare HTTP server, its hooks stand-ins) for the protocol layer's tests.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type IFrame, type IMessage, type StompHeaders } from '@stomp/stompjs';
import WebSocket from 'ws';
import { FrameParser, serializeFrame, type Frame, type HeaderList } from './frame.js';
import { StompServer } from './server.js';
import { StompError, bearerToken, type StompHooks, type StompPrincipal } from './session.js';

export interface StompClientOptions {
  heartbeatIncoming?: number;
  heartbeatOutgoing?: number;
  protocols?: string[];
  origin?: string;
}

export function createStompClient(
  url: string,
  connectHeaders: StompHeaders,
  options: StompClientOptions = {},
): Client {
  return new Client({
    webSocketFactory: () =>
      new WebSocket(url, options.protocols ?? ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
        ...(options.origin ? { origin: options.origin } : {}),
      }),
    connectHeaders,
    reconnectDelay: 0,
    heartbeatIncoming: options.heartbeatIncoming ?? 0,
    heartbeatOutgoing: options.heartbeatOutgoing ?? 0,
    debug: () => {},
  });
}

export type ConnectOutcome =
  | { ok: true; client: Client; frame: IFrame }
  | { ok: false; client: Client; error: IFrame | null; closeCode: number };

/** Activates a client and resolves with CONNECTED, or with the ERROR frame and the close code. */
export function connectStomp(
  url: string,
  connectHeaders: StompHeaders,
  options: StompClientOptions = {},
): Promise<ConnectOutcome> {
  const client = createStompClient(url, connectHeaders, options);
  return new Promise((resolve) => {
    let error: IFrame | null = null;
    let settled = false;
    client.onConnect = (frame) => {
      settled = true;
      resolve({ ok: true, client, frame });
    };
    client.onStompError = (frame) => {
      error = frame;
    };
    client.onWebSocketClose = (evt: { code: number }) => {
      if (settled) return;
      settled = true;
      void client.deactivate();
      resolve({ ok: false, client, error, closeCode: evt.code });
    };
    client.activate();
  });
}

export async function connectOrThrow(
  url: string,
  connectHeaders: StompHeaders,
  options: StompClientOptions = {},
): Promise<Client> {
  const outcome = await connectStomp(url, connectHeaders, options);
  if (!outcome.ok)
    throw new Error(`STOMP connect failed: ${outcome.error?.headers['message'] ?? outcome.closeCode}`);
  return outcome.client;
}

/** Subscribes and collects messages; `next()` waits for the next unseen one. */
export function collect(client: Client, destination: string, headers: StompHeaders = {}) {
  const messages: IMessage[] = [];
  const waiters: Array<() => void> = [];
  const subscription = client.subscribe(
    destination,
    (m) => {
      messages.push(m);
      for (const w of waiters.splice(0)) w();
    },
    headers,
  );
  let read = 0;
  return {
    messages,
    subscription,
    async next(timeoutMs = 2_000): Promise<IMessage> {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= read) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no message on ${destination} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return messages[read++]!;
    },
  };
}

/** Resolves when the server acknowledges `receipt`. */
export function receiptFor(client: Client, receipt: string, timeoutMs = 2_000): Promise<IFrame> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no RECEIPT ${receipt}`)), timeoutMs);
    client.watchForReceipt(receipt, (frame) => {
      clearTimeout(t);
      resolve(frame);
    });
  });
}

export interface RawClient {
  ws: WebSocket;
  frames: Frame[];
  /** Raw text messages that were only EOLs (server heart-beats). */
  heartbeats: number;
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  sendFrame(
    command: Parameters<typeof serializeFrame>[0],
    headers: Record<string, string> | HeaderList,
    body?: string | Buffer,
  ): void;
  nextFrame(timeoutMs?: number): Promise<Frame>;
}

export function rawClient(url: string, protocols: string[] = ['v12.stomp'], origin?: string): RawClient {
  const ws = new WebSocket(url, protocols, origin ? { origin } : {});
  const parser = new FrameParser({
    maxFrameBytes: 16 * 1024 * 1024,
    maxHeaders: 1000,
    maxHeaderLineBytes: 1024 * 1024,
  });
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  const client: RawClient = {
    ws,
    frames,
    heartbeats: 0,
    opened: new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    closed: new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    ),
    sendFrame(command, headers, body = '') {
      ws.send(serializeFrame(command, headers, body, { version: '1.2' }));
    },
    async nextFrame(timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs;
      while (frames.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no frame in time');
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return frames.shift()!;
    },
  };
  // Avoid unhandled rejections when a test expects the upgrade to fail.
  client.opened.catch(() => {});
  ws.on('message', (data: Buffer) => {
    const result = parser.push(Buffer.from(data));
    client.heartbeats += result.heartbeats;
    frames.push(...result.frames);
    for (const w of waiters.splice(0)) w();
  });
  return client;
}

/** What a client is told as its session ends: each ERROR frame's message, and the close code. */
export function watchEnding(client: Client): { errors: string[]; closed: Promise<number> } {
  const errors: string[] = [];
  client.onStompError = (f) => errors.push(f.headers['message'] ?? '');
  const closed = new Promise<number>(
    (resolve) => (client.onWebSocketClose = (e: { code: number }) => resolve(e.code)),
  );
  return { errors, closed };
}

/**
 * Timers for StompSession (`session.timers`) driven by the test: `advance(ms)` moves the clock and
 * runs every callback that fell due, in order. No sleeping.
 */
export class ManualTimers {
  nowMs = 1_700_000_000_000;
  private seq = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  now = (): number => this.nowMs;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.due.set(id, { at: this.nowMs + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.due.delete(handle as number);
  };

  advance(ms: number): void {
    const end = this.nowMs + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.due)
        if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.due.delete(next[0]);
      this.nowMs = Math.max(this.nowMs, next[1].at);
      next[1].fn();
    }
    this.nowMs = end;
  }
}

/** The page origin the echo server allows. */
export const ECHO_ORIGIN = 'http://campus.test:8080';

/** Tokens are "user-<id>"; "user-<id>-v<n>" carries a token version, "-ttl<ms>" a lifetime. */
function principalFor(token: string | null): StompPrincipal {
  const m = token ? /^user-(\d+)(?:-v(\d+))?(?:-ttl(\d+))?$/.exec(token) : null;
  if (!m) throw new StompError(token ? 'Invalid token' : 'Missing Authorization header');
  return {
    userId: Number(m[1]),
    tokenVersion: Number(m[2] ?? 0),
    // Two "campuses" for the scope hook: odd and even user ids.
    campusId: Number(m[1]) % 2,
    ...(m[3] ? { expiresAt: Date.now() + Number(m[3]) } : {}),
  };
}

/** The scope StompHooks.scope gives the work of a frame (the app's is the campus of db/campus-scope.ts). */
const frameScope = new AsyncLocalStorage<string>();

export interface EchoServer {
  http: Server;
  stomp: StompServer;
  url: string;
  sends: Array<{ userId: number; destination: string; body: string; headers: Record<string, string> }>;
  /** What each hook saw as its scope (StompHooks.scope), in the order they ran. */
  scopes: string[];
  /** How long onSend takes before it stores (0: at once). */
  sendDelayMs: number;
  /** What onSend throws instead of storing, if anything. */
  sendFailure: Error | null;
}

/**
 * A StompServer on a bare HTTP server whose onSend stores each SEND in `sends` and delivers it to
 * the destination's subscribers among the sender's own sessions (an echo).
 */
export async function startEchoServer(
  session: ConstructorParameters<typeof StompServer>[0]['session'] = {},
): Promise<EchoServer> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const scopes: string[] = [];
  const hooks: StompHooks = {
    authenticate: async (headers) => {
      scopes.push(`authenticate:${frameScope.getStore() ?? 'none'}`);
      return principalFor(bearerToken(headers));
    },
    scope: (principal, work) => frameScope.run(`campus-${principal.campusId}`, work),
    revalidate: async () => {
      scopes.push(`revalidate:${frameScope.getStore() ?? 'none'}`);
    },
    authorizeSubscribe: (principal, destination) => {
      scopes.push(`subscribe:${frameScope.getStore() ?? 'none'}`);
      if (destination.startsWith('/private/') && !destination.endsWith(`/${principal.userId}`)) {
        throw new StompError('Forbidden destination');
      }
    },
    onSend: async (s, destination, body, headers) => {
      scopes.push(`send:${frameScope.getStore() ?? 'none'}`);
      if (echo.sendDelayMs) await new Promise((r) => setTimeout(r, echo.sendDelayMs));
      if (echo.sendFailure) throw echo.sendFailure;
      echo.sends.push({ userId: s.principal!.userId, destination, body, headers });
      stomp.deliverToUser(s.principal!.userId, destination, body, String(echo.sends.length));
    },
  };
  const stomp = new StompServer({ hooks, allowedOrigins: [ECHO_ORIGIN], session });
  stomp.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const echo: EchoServer = {
    http,
    stomp,
    url: `ws://127.0.0.1:${port}/ws`,
    sends: [],
    scopes,
    sendDelayMs: 0,
    sendFailure: null,
  };
  return echo;
}

/** Closes every session (allowing `graceMs` for goodbyes), then the HTTP server. */
export async function stopEchoServer(echo: EchoServer, graceMs = 200): Promise<void> {
  await echo.stomp.close(graceMs);
  await new Promise<void>((resolve) => echo.http.close(() => resolve()));
}
