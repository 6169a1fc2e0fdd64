/**
 * Helpers for tests that talk STOMP to a real server: the stock @stomp/stompjs client (as browsers
 * use it) and a raw `ws` client for frames stompjs would never send.
 */
import { Client, type IFrame, type IMessage, type StompHeaders } from '@stomp/stompjs';
import WebSocket from 'ws';
import { FrameParser, serializeFrame, type Frame, type HeaderList } from './frame.js';

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
