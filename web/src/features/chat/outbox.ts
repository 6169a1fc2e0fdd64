import { useMemo, useSyncExternalStore } from 'react';
import type { ChatMessage } from '@campus/contract';
import { chatDestinations, getChatHistory } from '../../api/chat';
import { RealtimeSendError, isRealtimeConnected, onRealtimeConnected, sendRealtime } from '../../api/stomp';
import { ingestMessages, lastKnownMessageId, setReconcileHook } from './store';

/**
 * Messages typed but not yet confirmed stored (spec §8: publishing while disconnected must never be
 * silently dropped). Each one is shown as a pending bubble:
 * - queued: waiting for the connection; sent, in order, as soon as it is back;
 * - sending: written to the socket, waiting for the server's RECEIPT;
 * - sent: RECEIPT received (stored); the bubble is replaced by the stored message when its MESSAGE
 *   (or an HTTP catch-up) brings it;
 * - failed: the server refused it (ERROR frame); the person can retry or discard it.
 * If the link drops while a message is 'sending', it may or may not have been stored: before sending
 * it again, the room's newer messages are fetched (`?after=`) and checked for it.
 * The outbox lives as long as the page (not the chat screen), so leaving the screen loses nothing.
 */

export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface OutboxItem {
  clientId: string;
  roomId: string;
  buyerId: number;
  sellerId: number;
  senderId: number;
  listingId: number;
  content: string;
  url: string | null;
  createdAt: string;
  /** Largest message id of the room known when it was written: its stored copy has a larger one. */
  afterId: number;
  status: OutboxStatus;
  /** Written to a socket at least once (so it may already be stored). */
  attempted: boolean;
  error: string | null;
}

let items: readonly OutboxItem[] = [];
const listeners = new Set<() => void>();
let seq = 0;
let flushing = false;

function commit(next: readonly OutboxItem[]): void {
  items = next;
  for (const l of listeners) l();
}

function update(clientId: string, patch: Partial<OutboxItem>): void {
  commit(items.map((i) => (i.clientId === clientId ? { ...i, ...patch } : i)));
}

function find(clientId: string): OutboxItem | undefined {
  return items.find((i) => i.clientId === clientId);
}

function remove(clientId: string): void {
  if (find(clientId)) commit(items.filter((i) => i.clientId !== clientId));
}

/** Stored messages retire the pending bubbles they stand for (same sender, text and photo). */
function reconcile(roomId: string, messages: readonly ChatMessage[]): void {
  let next = items;
  for (const m of [...messages].sort((a, b) => a.id - b.id)) {
    const match = next.find(
      (i) =>
        i.roomId === roomId &&
        i.senderId === m.senderId &&
        i.status !== 'failed' &&
        (i.attempted || i.status !== 'queued') &&
        m.id > i.afterId &&
        i.content === m.content &&
        (i.url ?? null) === (m.url ?? null),
    );
    if (match) next = next.filter((i) => i !== match);
  }
  if (next !== items) commit(next);
}
setReconcileHook(reconcile);

/** After a receipt, the MESSAGE echo normally follows at once; if it does not, fetch what was stored. */
function checkEchoLater(item: OutboxItem): void {
  window.setTimeout(() => {
    const current = find(item.clientId);
    if (current?.status !== 'sent') return;
    getChatHistory(item.roomId, { after: item.afterId })
      .then((messages) => {
        ingestMessages(item.roomId, messages);
        // Stored for sure (receipt): never show it twice, even if the match above missed.
        if (find(item.clientId)?.status === 'sent' && messages.some((m) => m.senderId === item.senderId)) {
          remove(item.clientId);
        }
      })
      .catch(() => {
        // offline again: the next connect's catch-up will bring it
      });
  }, 2_500);
}

/** Sends queued messages, in order, one receipt at a time, while connected. */
async function flush(): Promise<void> {
  if (flushing) return;
  flushing = true;
  try {
    while (isRealtimeConnected()) {
      const item = items.find((i) => i.status === 'queued');
      if (!item) break;
      if (item.attempted) {
        // It may have been stored before the link dropped: look before sending it again.
        try {
          ingestMessages(item.roomId, await getChatHistory(item.roomId, { after: item.afterId }));
        } catch {
          break; // no network: wait for the next connect
        }
        if (find(item.clientId)?.status !== 'queued') continue;
      }
      update(item.clientId, { status: 'sending', attempted: true, error: null });
      const body: { content: string; listingId: number; url?: string } = {
        content: item.content,
        listingId: item.listingId,
      };
      if (item.url) body.url = item.url;
      try {
        await sendRealtime(chatDestinations.send(item.buyerId, item.sellerId), JSON.stringify(body));
        if (find(item.clientId)?.status === 'sending') {
          update(item.clientId, { status: 'sent' });
          checkEchoLater(item);
        }
      } catch (error) {
        if (error instanceof RealtimeSendError && error.refused) {
          update(item.clientId, { status: 'failed', error: error.message });
        } else if (find(item.clientId)) {
          update(item.clientId, { status: 'queued' });
          break; // the next connect resumes
        }
      }
    }
  } finally {
    flushing = false;
  }
}

onRealtimeConnected(() => void flush());

export interface NewOutgoing {
  roomId: string;
  buyerId: number;
  sellerId: number;
  senderId: number;
  listingId: number;
  content: string;
  url?: string | null;
}

/** Queues a message and sends it now if connected (else on reconnect). */
export function enqueueMessage(message: NewOutgoing): OutboxItem {
  seq += 1;
  const item: OutboxItem = {
    ...message,
    url: message.url ?? null,
    clientId: `local-${Date.now().toString(36)}-${seq}`,
    createdAt: new Date().toISOString(),
    afterId: lastKnownMessageId(message.roomId),
    status: 'queued',
    attempted: false,
    error: null,
  };
  commit([...items, item]);
  void flush();
  return item;
}

export function retryMessage(clientId: string): void {
  const item = find(clientId);
  if (!item || item.status !== 'failed') return;
  update(clientId, { status: 'queued', error: null });
  void flush();
}

export function discardMessage(clientId: string): void {
  remove(clientId);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => items;

/** The room's pending messages, oldest first. */
export function useOutbox(roomId: string | null): OutboxItem[] {
  const all = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return useMemo(() => (roomId ? all.filter((i) => i.roomId === roomId) : []), [all, roomId]);
}
