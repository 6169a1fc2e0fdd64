import {
  LIMITS,
  MESSAGE_KINDS,
  STOMP_PATHS,
  type ChatMessage,
  type ChatRoomSummary,
  type Listing,
} from '@campus/contract';
import { ApiError, api, apiUrl, toFormData } from './client';

/** Chat calls of spec §7 (HTTP side; the realtime side is in ./stomp). */

export const chatKeys = {
  all: ['chats'] as const,
  rooms: () => ['chats', 'rooms'] as const,
  messages: (roomId: string) => ['chats', 'room', roomId, 'messages'] as const,
  user: (id: number) => ['users', 'public', id] as const,
  listing: (id: number) => ['chats', 'listing', id] as const,
};

/** GET /api/chats: the caller's rooms, newest activity first. */
export function listChatRooms(signal?: AbortSignal): Promise<ChatRoomSummary[]> {
  return api.get<ChatRoomSummary[]>('/api/chats', { signal });
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * GET /api/chats/{roomId}: messages oldest first; a 404 means no history (spec §8) and gives [].
 * With `after`, only the newer messages, following pages until all are in.
 */
export async function getChatHistory(
  roomId: string,
  options: { after?: number; signal?: AbortSignal } = {},
): Promise<ChatMessage[]> {
  const path = `/api/chats/${encodeURIComponent(roomId)}`;
  const { signal } = options;
  try {
    if (options.after === undefined) {
      return await api.get<ChatMessage[]>(path, { signal });
    }
    const out: ChatMessage[] = [];
    let after = options.after;
    for (;;) {
      const page = await api.get<ChatMessage[]>(path, {
        signal,
        query: { after, limit: LIMITS.chatPageMax },
      });
      out.push(...page);
      const last = page[page.length - 1];
      if (page.length < LIMITS.chatPageMax || !last) return out;
      after = last.id;
    }
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** GET /api/chats/{roomId}?before={id}: the page of messages just older than `before`, oldest first. */
export async function getOlderChatMessages(
  roomId: string,
  before: number,
  signal?: AbortSignal,
): Promise<ChatMessage[]> {
  try {
    return await api.get<ChatMessage[]>(`/api/chats/${encodeURIComponent(roomId)}`, {
      signal,
      query: { before, limit: LIMITS.chatPageDefault },
    });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** POST /api/chats/{roomId}/read: everything up to now is read (our addition, for unread counts). */
export function markChatRead(roomId: string): Promise<unknown> {
  return api.post(`/api/chats/${encodeURIComponent(roomId)}/read`);
}

/** POST /api/chats/upload (multipart field `image`) -> the stored image URL (plain text). */
export async function uploadChatImage(file: Blob): Promise<string> {
  const answer = await api.upload<unknown>('/api/chats/upload', toFormData({ image: file }));
  if (typeof answer === 'string' && answer.trim() !== '') return answer.trim();
  if (typeof answer === 'object' && answer !== null) {
    const url = (answer as { url?: unknown }).url;
    if (typeof url === 'string' && url !== '') return url;
  }
  throw new ApiError(500, null, 'BAD_UPLOAD_ANSWER', answer);
}

export interface PublicUser {
  id: number;
  firstName: string;
  lastName: string;
}

/** GET /users/{id}: first and last name. */
export function getPublicUser(id: number, signal?: AbortSignal): Promise<PublicUser> {
  return api.get<PublicUser>(`/users/${id}`, { signal });
}

/** The listing a conversation is about, as the chat header shows it. */
export interface ChatListingRef {
  id: number;
  name: string;
  thumbnailUrl: string | null;
}

/** GET /listing/{id}, reduced to what the chat header needs. */
export async function getChatListing(id: number, signal?: AbortSignal): Promise<ChatListingRef> {
  const listing = await api.get<Listing>(`/listing/${id}`, { signal });
  return { id: listing.id, name: listing.name, thumbnailUrl: listing.thumbnailUrl ?? listing.imageUrl };
}

/** STOMP destinations of a room (spec §7). */
export const chatDestinations = {
  room: (roomId: string) => `${STOMP_PATHS.subscribePrefix}${roomId}`,
  send: (buyerId: number, sellerId: number) => `${STOMP_PATHS.sendPrefix}${buyerId}/${sellerId}`,
  inbox: STOMP_PATHS.inbox,
};

/** Absolute URL of an image the API stored (chat photo, listing thumbnail). */
export function chatImageUrl(url: string): string {
  return apiUrl(url);
}

/** Parses a MESSAGE body into a ChatMessage, or null when it is not one. */
export function parseChatMessage(body: string): ChatMessage | null {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null) return null;
    const m = value as Partial<ChatMessage>;
    if (typeof m.id !== 'number' || typeof m.roomId !== 'string' || typeof m.senderId !== 'number')
      return null;
    return {
      id: m.id,
      roomId: m.roomId,
      content: typeof m.content === 'string' ? m.content : '',
      url: typeof m.url === 'string' && m.url !== '' ? m.url : null,
      senderId: m.senderId,
      sentAt: typeof m.sentAt === 'string' ? m.sentAt : new Date().toISOString(),
      listingId: typeof m.listingId === 'number' ? m.listingId : null,
      // Unknown kinds (a newer server) read as text, so the message still shows.
      kind: m.kind && (MESSAGE_KINDS as readonly string[]).includes(m.kind) ? m.kind : 'text',
      ...(m.offer ? { offer: m.offer } : {}),
      ...(m.meetup ? { meetup: m.meetup } : {}),
    };
  } catch {
    return null;
  }
}
