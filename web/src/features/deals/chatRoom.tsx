import { useCallback, useState } from 'react';
import type { ChatMessage } from '@campus/contract';
import type { RoomKind, RoomParts, RoomState } from '../chat/roomKinds';
import { DealBar, DeletedListingBanner } from './DealBar';
import { DealDialogs } from './DealDialogs';
import { renderDealMessage } from './dealMessage';
import { cardAnchor, focusCard } from './CardFrame';
import { ItemPin } from './ItemPin';
import { agreedPrice, nextStep, type DialogStep, type NextStep } from './nextStep';
import { QuickReplies } from './QuickReplies';
import { SavedHandoffCodes } from './SavedHandoffCodes';
import { useDealState } from './useDealState';

/**
 * The deal in an open conversation: the item and the viewer's next step pinned under the header,
 * its cards and system lines, quick replies for a buyer's first words, the other deal actions and
 * the deal dialogs above the composer, a deleted listing.
 */
function useDealRoom(room: RoomState): RoomParts {
  const deal = useDealState(room.listingId, room.messages, room.peerId, room.myId);
  const { cards, listing } = deal;
  const { myId, peerId, peerFirstName, roomId, loaded } = room;
  const [open, setOpen] = useState<DialogStep | null>(null);
  const [releasing, setReleasing] = useState(false);
  const renderMessage = useCallback(
    (m: ChatMessage) => renderDealMessage(m, { cards, myId, peerName: peerFirstName, listing }),
    [cards, myId, peerFirstName, listing],
  );
  const ready = listing && myId !== null && peerId !== null;
  const step: NextStep | null = ready
    ? nextStep({ listing, myId, peerId, peer: peerFirstName, cards, canRate: deal.toRate !== null })
    : null;
  const onStep = (s: NextStep) => {
    if ('offerId' in s) focusCard(cardAnchor('offer', s.offerId));
    else if ('meetupId' in s) focusCard(cardAnchor('meetup', s.meetupId));
    else setOpen(s.kind);
  };
  const buyerFirstWords =
    ready &&
    loaded &&
    room.send !== undefined &&
    listing.seller.id !== myId &&
    listing.status === 'AVAILABLE' &&
    room.messages.every((m) => m.senderId !== myId);

  return {
    renderMessage,
    // A deleted listing has no page to link to: the banner above the composer says so.
    listingGone: deal.deleted,
    pinnedListingId: ready ? listing.id : null,
    belowHeader: ready ? (
      <ItemPin
        listing={listing}
        myId={myId}
        peerId={peerId}
        peer={peerFirstName}
        step={step}
        onStep={onStep}
        agreed={agreedPrice(cards, listing.id, listing.seller.id === myId ? peerId : myId)}
      />
    ) : null,
    aboveComposer: (
      <>
        {deal.deleted && loaded && <DeletedListingBanner />}
        {buyerFirstWords && !listing.free && <QuickReplies price={listing.price} onSend={room.send!} />}
        {ready && (
          <>
            <DealBar
              listing={listing}
              roomId={roomId}
              myId={myId}
              peerId={peerId}
              cards={cards}
              primary={step?.kind ?? null}
              onOpen={setOpen}
              releasing={releasing}
              setReleasing={setReleasing}
            />
            <DealDialogs
              open={open}
              onClose={() => setOpen(null)}
              onRelease={() => setReleasing(true)}
              listing={listing}
              roomId={roomId}
              myId={myId}
              peerFirstName={peerFirstName}
              cards={cards}
              toRate={deal.toRate}
            />
          </>
        )}
      </>
    ),
  };
}

/** What deals adds to the chat (wired by the app shell: app/pages/ChatPage.tsx). */
export const dealRoomKind: RoomKind = { useRoom: useDealRoom, Offline: SavedHandoffCodes };
