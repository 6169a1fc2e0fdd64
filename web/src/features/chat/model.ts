import { parseRoomId, type ChatMessage } from '@campus/contract';
import type { ChatListingRef } from '../../api/chat';
import { daysBefore, isThisYear, liveBasis, zoneOption, type TimeBasis } from '../../ui/timeBasis';

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

function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * Message timestamp in the student's locale (replacing the spec's '03-14 09:05'):
 * "Today 7:08 AM", "Yesterday 9:15 PM", then the date ("Mar 14, 7:08 AM"; with the year when it
 * is not this year). The basis (ui/timeBasis.ts) gives now, the locale and the zone.
 */
export function formatMessageTime(iso: string, basis: TimeBasis = liveBasis()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const zone = zoneOption(basis);
  const time = d.toLocaleTimeString(basis.locale, { hour: 'numeric', minute: '2-digit', ...zone });
  const days = daysBefore(d.getTime(), basis);
  if (days === 0 || days === 1) {
    const word = new Intl.RelativeTimeFormat(basis.locale, { numeric: 'auto' }).format(-days, 'day');
    return `${capitalize(word)} ${time}`;
  }
  return d.toLocaleString(basis.locale, {
    month: 'short',
    day: 'numeric',
    ...(isThisYear(d.getTime(), basis) ? {} : { year: 'numeric' }),
    hour: 'numeric',
    minute: '2-digit',
    ...zone,
  });
}

/** Short time for the inbox, in the student's locale: '7:08 AM' today, 'Yesterday', then the date. */
export function formatRoomTime(iso: string, basis: TimeBasis = liveBasis()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const zone = zoneOption(basis);
  const days = daysBefore(d.getTime(), basis);
  if (days === 0) return d.toLocaleTimeString(basis.locale, { hour: 'numeric', minute: '2-digit', ...zone });
  if (days === 1) {
    return capitalize(new Intl.RelativeTimeFormat(basis.locale, { numeric: 'auto' }).format(-1, 'day'));
  }
  return d.toLocaleDateString(basis.locale, {
    month: 'short',
    day: 'numeric',
    ...(isThisYear(d.getTime(), basis) ? {} : { year: 'numeric' }),
    ...zone,
  });
}

/** Full date and time for a tooltip / screen readers. */
export function formatFullTime(iso: string, basis: TimeBasis = liveBasis()): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(basis.locale, zoneOption(basis));
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
