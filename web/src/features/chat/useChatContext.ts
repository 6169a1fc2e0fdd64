import { useQuery } from '@tanstack/react-query';
import { parseRoomId, roomIdFor, type ChatRoomSummary } from '@campus/contract';
import {
  chatKeys,
  getChatListing,
  getPublicUser,
  type ChatListingRef,
  type PublicUser,
} from '../../api/chat';
import type { ChatNavState } from './model';
import { useChatRooms } from './useChatRooms';

export type ChatContextProblem =
  /** /chat without navigation state: nothing to show but a pointer to the inbox. */
  | 'no-room'
  /** The room key is not one of mine. */
  | 'not-member'
  /** A room without history, reached without the listing's navigation state: we cannot start it. */
  | 'unknown-room'
  /** Buyer and seller are the same student. */
  | 'self'
  /** The rooms list could not load (offline, server down): who the room is with is unknown. */
  | 'unavailable';

export interface ChatContext {
  /** Still resolving (user id, rooms list). */
  loading: boolean;
  problem: ChatContextProblem | null;
  roomId: string | null;
  myId: number | null;
  peerId: number | null;
  buyerId: number | null;
  sellerId: number | null;
  listingId: number | null;
  peer: PublicUser | null;
  listing: ChatListingRef | null;
  room: ChatRoomSummary | null;
}

/**
 * Who, where and about what (spec §2): from the navigation state when there is one (listing page,
 * inbox); otherwise (reload, deep link) from the URL's room key, GET /api/chats (the room's buyer,
 * seller and listing) and GET /users/{peerId}.
 */
export function useChatContext(
  routeKey: string | undefined,
  nav: ChatNavState,
  myId: number | null,
): ChatContext {
  const rooms = useChatRooms();

  const fromRoute = routeKey && parseRoomId(routeKey) ? routeKey : null;
  const fromState =
    nav.roomkey ??
    (nav.buyerId !== undefined && nav.sellerId !== undefined ? roomIdFor(nav.buyerId, nav.sellerId) : null);
  const roomId = fromRoute ?? fromState;
  const pair = roomId ? parseRoomId(roomId) : null;
  const room = roomId ? (rooms.data?.find((r) => r.id === roomId) ?? null) : null;

  // The state only counts when it is about this room.
  const stateFits =
    nav.buyerId !== undefined &&
    nav.sellerId !== undefined &&
    roomId !== null &&
    nav.buyerId !== nav.sellerId &&
    roomIdFor(nav.buyerId, nav.sellerId) === roomId;
  const buyerId = stateFits ? nav.buyerId! : (room?.buyerId ?? null);
  const sellerId = stateFits ? nav.sellerId! : (room?.sellerId ?? null);
  // A room whose listing was deleted has listingId null: its last message still
  // names the listing the pair talked about, which the conversation keeps using.
  const listingId =
    (stateFits ? nav.listingId : undefined) ?? room?.listingId ?? room?.lastMessage?.listingId ?? null;

  let peerId: number | null = null;
  if (pair && myId !== null) peerId = pair[0] === myId ? pair[1] : pair[1] === myId ? pair[0] : null;

  const peerQuery = useQuery({
    queryKey: chatKeys.user(peerId ?? 0),
    queryFn: ({ signal }) => getPublicUser(peerId!, signal),
    enabled: peerId !== null,
    staleTime: 10 * 60_000,
    placeholderData: room?.peer,
  });

  const stateListing = stateFits && nav.listing && nav.listing.id === listingId ? nav.listing : null;
  const knownListing = stateListing ?? (room?.listing && room.listing.id === listingId ? room.listing : null);
  const listingQuery = useQuery({
    queryKey: chatKeys.listing(listingId ?? 0),
    queryFn: ({ signal }) => getChatListing(listingId!, signal),
    enabled: listingId !== null && knownListing === null,
    staleTime: 10 * 60_000,
  });

  let problem: ChatContextProblem | null = null;
  let loading = false;
  if (!roomId) problem = 'no-room';
  else if (nav.buyerId !== undefined && nav.buyerId === nav.sellerId) problem = 'self';
  else if (myId === null) loading = true;
  else if (peerId === null) problem = 'not-member';
  // A room with history opens even without a listing; only an unknown pair cannot be started here.
  else if (buyerId === null || sellerId === null || (listingId === null && room === null)) {
    if (rooms.isPending) loading = true;
    // Not "unknown": without the rooms list nothing is known (an offline reload ends here).
    else if (rooms.isError) problem = 'unavailable';
    else problem = 'unknown-room';
  }

  return {
    loading,
    problem,
    roomId: problem === 'no-room' || problem === 'not-member' ? null : roomId,
    myId,
    peerId,
    buyerId,
    sellerId,
    listingId,
    peer: peerQuery.data ?? room?.peer ?? null,
    listing: knownListing ?? listingQuery.data ?? null,
    room,
  };
}
