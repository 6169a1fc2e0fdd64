import { parseRoomId, type ChatMessage } from '@campus/contract';
import type { ChatListingRef } from '../../api/chat';

/** Merges message lists by id: each message once (the newer copy wins), sorted by id. */
export function mergeMessages(
  current: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[];
  const last = current[current.length - 1];
  // Fast path: the usual live case, one newer message appended.
  if (incoming.length === 1 && (!last || incoming[0]!.id > last.id)) return [...current, incoming[0]!];
  const byId = new Map<number, ChatMessage>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Spec §2 timestamp: month-day hour:minute, e.g. '03-14 09:05' (local time). */
export function formatMessageTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Short time for the inbox: 'HH:mm' today, else 'MM-DD'. */
export function formatRoomTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Full date and time for a tooltip / screen readers. */
export function formatFullTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}

export function fullName(person: { firstName: string; lastName: string } | null | undefined): string {
  if (!person) return '';
  return `${person.firstName} ${person.lastName}`.trim();
}

/**
 * Navigation state of /chat and /chat/{roomkey} (spec §2): set by the single-listing 'Chat with the
 * seller' button and by the inbox. Every field is optional: a reload or deep link has none.
 */
export interface ChatNavState {
  from?: unknown;
  buyerId?: number;
  sellerId?: number;
  roomkey?: string;
  listingId?: number;
  history?: ChatMessage[];
  listing?: ChatListingRef;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

function isMessage(value: unknown): value is ChatMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<ChatMessage>;
  return typeof m.id === 'number' && typeof m.senderId === 'number' && typeof m.roomId === 'string';
}

/** Reads the navigation state defensively (it is whatever the previous page put there). */
export function readChatNavState(state: unknown): ChatNavState {
  if (typeof state !== 'object' || state === null) return {};
  const s = state as Record<string, unknown>;
  const out: ChatNavState = {};
  if (s.from !== undefined) out.from = s.from;
  const buyerId = num(s.buyerId);
  const sellerId = num(s.sellerId);
  if (buyerId !== undefined) out.buyerId = buyerId;
  if (sellerId !== undefined) out.sellerId = sellerId;
  const roomkey = s.roomkey ?? s.roomKey;
  if (typeof roomkey === 'string' && parseRoomId(roomkey)) out.roomkey = roomkey;
  const listingId = num(s.listingId);
  if (listingId !== undefined) out.listingId = listingId;
  if (Array.isArray(s.history)) out.history = s.history.filter(isMessage);
  if (typeof s.listing === 'object' && s.listing !== null) {
    const l = s.listing as Record<string, unknown>;
    const id = num(l.id);
    if (id !== undefined && typeof l.name === 'string') {
      const thumb = l.thumbnailUrl ?? l.imageUrl;
      out.listing = { id, name: l.name, thumbnailUrl: typeof thumb === 'string' ? thumb : null };
    }
  }
  return out;
}

/** Text of the last message for previews: its text, else 'Photo'. */
export function messagePreview(message: ChatMessage | null): string {
  if (!message) return '';
  const text = message.content.trim();
  if (text) return text.replace(/\s+/g, ' ');
  return message.url ? 'Photo' : '';
}
