import { useCallback } from 'react';
import type { ChatMessage } from '@campus/contract';
import type { RoomKind, RoomParts, RoomState } from '../chat/roomKinds';
import { DealBar, DeletedListingBanner } from './DealBar';
import { renderDealMessage } from './dealMessage';
import { SavedHandoffCodes } from './SavedHandoffCodes';
import { useDealState } from './useDealState';

/** The deal in an open conversation: its cards and system lines, the deal bar, a deleted listing. */
function useDealRoom(room: RoomState): RoomParts {
  const deal = useDealState(room.listingId, room.messages, room.peerId, room.myId);
  const { cards, listing } = deal;
  const { myId, peerId, peerFirstName, roomId, loaded } = room;
  const renderMessage = useCallback(
    (m: ChatMessage) => renderDealMessage(m, { cards, myId, peerName: peerFirstName, listing }),
    [cards, myId, peerFirstName, listing],
  );
  return {
    renderMessage,
    // A deleted listing has no page to link to: the banner above the composer says so.
    listingGone: deal.deleted,
    aboveComposer: (
      <>
        {deal.deleted && loaded && <DeletedListingBanner />}
        {deal.listing && myId !== null && peerId !== null && (
          <DealBar
            listing={deal.listing}
            roomId={roomId}
            myId={myId}
            peerId={peerId}
            peerFirstName={peerFirstName}
            cards={deal.cards}
            toRate={deal.toRate}
          />
        )}
      </>
    ),
  };
}

/** What deals adds to the chat (wired by the app shell: app/pages/ChatPage.tsx). */
export const dealRoomKind: RoomKind = { useRoom: useDealRoom, Offline: SavedHandoffCodes };
