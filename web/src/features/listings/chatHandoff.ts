import { roomIdFor, type ChatMessage, type Listing } from '@campus/contract';
import { api, ApiError } from '../../api/client';
import type { ChatHandoffState } from './navigation';

/**
 * 'Chat with the seller' (spec §2): loads the room's history (404 = no history, other errors are
 * only logged) and tells where to go: /chat for a new conversation, /chat/{roomKey} otherwise.
 * `buyerId` is the caller, or for the seller of a reserved listing the buyer it is reserved for.
 */
export async function prepareChatWithSeller(
  listing: Listing,
  buyerId: number,
  from: string,
): Promise<{ to: string; state: ChatHandoffState }> {
  const roomKey = roomIdFor(buyerId, listing.seller.id);
  let history: ChatMessage[] = [];
  try {
    const data = await api.get<unknown>(`/api/chats/${roomKey}`);
    if (Array.isArray(data)) history = data as ChatMessage[];
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      console.error('Failed to load the chat history', error);
    }
  }
  const state: ChatHandoffState = {
    from,
    buyerId,
    sellerId: listing.seller.id,
    roomkey: roomKey,
    listingId: listing.id,
    history,
    listing: { id: listing.id, name: listing.name, thumbnailUrl: listing.thumbnailUrl },
  };
  return { to: history.length > 0 ? `/chat/${roomKey}` : '/chat', state };
}
