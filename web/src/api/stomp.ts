import { MESSAGES, STOMP_PATHS, TIMINGS } from '@campus/contract';
import { useSyncExternalStore } from 'react';
import type { Client, IFrame, StompSubscription } from '@stomp/stompjs';
import { isTokenValid } from '../session/jwt';
import { getToken } from '../session/token';
import { API_BASE_URL } from './client';

/**
 * The app's one STOMP connection (spec §4, §7): STOMP 1.2 over a WebSocket at /ws, `Authorization:
 * Bearer <token>` read afresh on every (re)connect, heart-beats both ways, automatic reconnect after
 * `TIMINGS.reconnectDelayMs`.
 *
 * Reference-counted: whoever needs realtime calls `acquireRealtime()` (the app layout for the live
 * unread badge, the chat screen for its room) and the returned release function when done; the
 * connection is active while anyone holds it and deactivated when the last one lets go.
 * Subscriptions are declared here rather than on the stompjs client, so they survive reconnects:
 * every (re)connect subscribes them again and notifies `onRealtimeConnected` listeners, which catch
 * up on what they missed over HTTP.
 *
 * @stomp/stompjs is imported lazily, so it is not part of the initial JS.
 */

export type RealtimeStatus =
  /** Nobody holds the connection. */
  | 'idle'
  /** First connection attempt in progress. */
  | 'connecting'
  | 'connected'
  /** Was connected (or tried), lost it, retrying every 5 s. */
  | 'reconnecting';

export type MessageHandler = (body: string, headers: Record<string, string>) => void;

/** A SEND refused by the server (ERROR frame answering it), or a connection lost before its receipt. */
export class RealtimeSendError extends Error {
  override readonly name = 'RealtimeSendError';
  /** True when the server refused the frame (do not retry as is); false when the link dropped. */
  readonly refused: boolean;
  constructor(message: string, refused: boolean) {
    super(message);
    this.refused = refused;
  }
}

interface Registration {
  destination: string;
  handler: MessageHandler;
  live: StompSubscription | null;
}

interface PendingReceipt {
  resolve: () => void;
  reject: (error: RealtimeSendError) => void;
}

/** Messages of ERROR frames that mean "your token is not accepted". */
const AUTH_ERRORS = new Set<string>([MESSAGES.unauthorized, MESSAGES.chatSessionRevoked]);

/** ws(s)://host/ws for the API's origin (same origin unless VITE_API_BASE_URL says otherwise). */
export function realtimeUrl(): string {
  const base = API_BASE_URL || window.location.origin;
  const url = new URL(STOMP_PATHS.endpoint, base.endsWith('/') ? base : `${base}/`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

let client: Client | null = null;
let loading: Promise<void> | null = null;
let holders = 0;
let status: RealtimeStatus = 'idle';
let everConnected = false;
let nextReceipt = 1;
const registrations = new Set<Registration>();
const statusListeners = new Set<() => void>();
const connectedListeners = new Set<() => void>();
const authFailureListeners = new Set<() => void>();
const receipts = new Map<string, PendingReceipt>();

/**
 * SENDs the server refuses for an application reason (blocked, daily cap, too long…) are answered
 * with a MESSAGE `{message, code, receiptId}` on /user/queue/errors, and the session stays open:
 * the SEND waiting for that receipt fails with the server's message.
 */
function onAppError(body: string): void {
  let parsed: { message?: unknown; receiptId?: unknown };
  try {
    parsed = JSON.parse(body) as { message?: unknown; receiptId?: unknown };
  } catch {
    return;
  }
  const receiptId = typeof parsed.receiptId === 'string' ? parsed.receiptId : null;
  const pending = receiptId ? receipts.get(receiptId) : undefined;
  if (!receiptId || !pending) return;
  receipts.delete(receiptId);
  const message = typeof parsed.message === 'string' ? parsed.message : MESSAGES.notConnected;
  pending.reject(new RealtimeSendError(message, true));
}
registrations.add({ destination: STOMP_PATHS.errors, handler: onAppError, live: null });

/**
 * The server says this session may have missed live messages (its process lost the link to the
 * others for a while): run the same catch-up as after a reconnect.
 */
function onResync(): void {
  runCatchUp();
}
registrations.add({ destination: STOMP_PATHS.resync, handler: onResync, live: null });

function setStatus(next: RealtimeStatus): void {
  if (status === next) return;
  status = next;
  for (const listener of statusListeners) listener();
}

function subscribeOne(reg: Registration): void {
  if (!client?.connected) return;
  reg.live = client.subscribe(reg.destination, (message) => {
    reg.handler(message.body, message.headers);
  });
}

/** Rejects every SEND still waiting for its receipt (the socket they were written to is gone). */
function failPendingReceipts(): void {
  if (receipts.size === 0) return;
  const pending = [...receipts.values()];
  receipts.clear();
  for (const p of pending) p.reject(new RealtimeSendError(MESSAGES.notConnected, false));
}

function onConnected(): void {
  everConnected = true;
  setStatus('connected');
  for (const reg of registrations) subscribeOne(reg);
  runCatchUp();
}

/**
 * Runs every catch-up listener, each in a task of its own: together (requests, cache updates,
 * renders) they would block a phone's main thread for one long stretch right as the page becomes
 * usable.
 */
function runCatchUp(): void {
  for (const listener of [...connectedListeners]) {
    window.setTimeout(() => {
      if (connectedListeners.has(listener) && isRealtimeConnected()) listener();
    }, 0);
  }
}

function onLinkLost(): void {
  for (const reg of registrations) reg.live = null;
  failPendingReceipts();
  if (holders > 0) setStatus(everConnected ? 'reconnecting' : 'connecting');
}

/** The token the current socket sent on CONNECT. */
let tokenOfConnection: string | null = null;

function onStompError(frame: IFrame): void {
  const message = frame.headers.message ?? MESSAGES.notConnected;
  const receiptId = frame.headers['receipt-id'];
  const pending = receiptId ? receipts.get(receiptId) : undefined;
  if (receiptId && pending) {
    receipts.delete(receiptId);
    pending.reject(new RealtimeSendError(message, true));
  }
  // A password change in this tab revokes the token this socket connected with, but the tab
  // already holds the fresh token: reconnecting with it (automatic) keeps the session.
  const refreshed = isTokenValid() && getToken() !== tokenOfConnection;
  if (AUTH_ERRORS.has(message) && !refreshed) {
    for (const listener of [...authFailureListeners]) listener();
  }
}

async function createClient(): Promise<void> {
  const { Client: StompClient } = await import('@stomp/stompjs');
  const c = new StompClient({
    brokerURL: realtimeUrl(),
    reconnectDelay: TIMINGS.reconnectDelayMs,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    connectionTimeout: 10_000,
    // A missed heart-beat closes the socket at once instead of waiting for TCP to notice.
    discardWebsocketOnCommFailure: true,
    debug: () => {},
  });
  c.beforeConnect = (self) => {
    const token = getToken();
    tokenOfConnection = token;
    self.connectHeaders = token ? { Authorization: `Bearer ${token}` } : {};
    if (status !== 'connected') setStatus(everConnected ? 'reconnecting' : 'connecting');
  };
  c.onConnect = onConnected;
  c.onStompError = onStompError;
  c.onWebSocketClose = onLinkLost;
  client = c;
}

function activate(): void {
  if (client) {
    if (!client.active) client.activate();
    return;
  }
  loading ??= createClient()
    .then(() => {
      if (holders > 0) client?.activate();
    })
    .catch(() => {
      loading = null; // chunk failed to load (offline): try again with the next acquire
      if (holders > 0) setStatus('reconnecting');
    });
}

/**
 * Keeps the connection active until the returned function is called. Call it from an effect:
 * `useEffect(() => acquireRealtime(), [])`.
 */
export function acquireRealtime(): () => void {
  holders += 1;
  if (holders === 1) {
    if (status !== 'connected') setStatus(everConnected ? 'reconnecting' : 'connecting');
    activate();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) {
      // Let a page hand over to the next one (chat -> inbox) without dropping the socket.
      window.setTimeout(() => {
        if (holders > 0 || !client) return;
        void client.deactivate();
        for (const reg of registrations) reg.live = null;
        failPendingReceipts();
        everConnected = false;
        setStatus('idle');
      }, 1_000);
    }
  };
}

/**
 * Subscribes to a destination for as long as the returned function is not called, across
 * reconnects. MESSAGE bodies are handed over as received (JSON text).
 */
export function subscribeRealtime(destination: string, handler: MessageHandler): () => void {
  const reg: Registration = { destination, handler, live: null };
  registrations.add(reg);
  subscribeOne(reg);
  return () => {
    registrations.delete(reg);
    if (reg.live && client?.connected) {
      try {
        reg.live.unsubscribe();
      } catch {
        // the link dropped in between: nothing to undo on the server
      }
    }
    reg.live = null;
  };
}

/** Calls `listener` after every successful (re)connect, once the subscriptions are in place. */
export function onRealtimeConnected(listener: () => void): () => void {
  connectedListeners.add(listener);
  return () => connectedListeners.delete(listener);
}

/** How long a page waits for the live link before loading without it (WebSockets blocked, say). */
const LIVE_FALLBACK_MS = 4000;

/**
 * Runs `load` now if the live link is up, and after every (re)connect. A page that opens before the
 * link is up loads once, at the connection (whose catch-up it needs anyway), instead of once on
 * opening and again at the connection a moment later; if the link is not up within a few seconds it
 * loads without it.
 */
export function loadAndCatchUp(load: (when: 'now' | 'connected') => void): () => void {
  let waiting = !isRealtimeConnected();
  if (!waiting) load('now');
  const fallback = waiting
    ? window.setTimeout(() => {
        if (!waiting) return;
        waiting = false;
        load('now');
      }, LIVE_FALLBACK_MS)
    : undefined;
  const off = onRealtimeConnected(() => {
    waiting = false;
    window.clearTimeout(fallback);
    load('connected');
  });
  return () => {
    window.clearTimeout(fallback);
    off();
  };
}

/** Calls `listener` when the server refuses the session's token (ERROR frame). */
export function onRealtimeAuthFailure(listener: () => void): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

export function isRealtimeConnected(): boolean {
  return client?.connected === true && status === 'connected';
}

/**
 * SEND with a receipt. Resolves once the server stored what it was sent (its RECEIPT); rejects with
 * a RealtimeSendError when not connected, when the server refuses it (`refused`), or when the link
 * drops before the receipt (then it may or may not have been stored: check before resending).
 */
export function sendRealtime(destination: string, body: string): Promise<void> {
  const c = client;
  if (!c?.connected || status !== 'connected') {
    return Promise.reject(new RealtimeSendError(MESSAGES.notConnected, false));
  }
  const receipt = `send-${nextReceipt++}`;
  const token = getToken();
  return new Promise<void>((resolve, reject) => {
    receipts.set(receipt, { resolve, reject });
    c.watchForReceipt(receipt, () => {
      const pending = receipts.get(receipt);
      receipts.delete(receipt);
      pending?.resolve();
    });
    try {
      c.publish({
        destination,
        body,
        headers: {
          receipt,
          'content-type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      });
    } catch (error) {
      receipts.delete(receipt);
      reject(new RealtimeSendError(error instanceof Error ? error.message : MESSAGES.notConnected, false));
    }
  });
}

function subscribeStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function getRealtimeStatus(): RealtimeStatus {
  return status;
}

/** The connection state, re-rendering on change. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, getRealtimeStatus, () => 'idle');
}
