import type { DealWithReviews, Listing } from '@campus/contract';
import { RateDialog } from '../trust/components/RateDialog';
import { HandoffCodeDialog, HandoffEntryDialog } from './HandoffDialogs';
import { focusNextStep } from './ItemPin';
import { MeetupDialog } from './MeetupDialog';
import type { DialogStep } from './nextStep';
import { OfferDialog } from './OfferDialog';
import { openMeetup, type DealCards } from './rules';

/**
 * The deal dialogs of a chat, opened from the pinned next step or the deal bar. After a step that
 * went through, focus goes to the next step (it has changed); a cancelled dialog returns focus to
 * what opened it (ui/Dialog).
 */
export function DealDialogs({
  open,
  onClose,
  onRelease,
  listing,
  roomId,
  myId,
  peerFirstName,
  cards,
  toRate,
}: {
  open: DialogStep | null;
  onClose: () => void;
  onRelease: () => void;
  listing: Listing;
  roomId: string;
  myId: number;
  peerFirstName: string;
  cards: DealCards;
  toRate: DealWithReviews | null;
}) {
  const done = () => {
    onClose();
    focusNextStep();
  };
  switch (open) {
    case 'offer':
      return <OfferDialog listing={listing} roomId={roomId} open onClose={onClose} onSent={done} />;
    case 'seller-offer':
      return (
        <OfferDialog
          listing={listing}
          roomId={roomId}
          toPeer={peerFirstName}
          open
          onClose={onClose}
          onSent={done}
        />
      );
    case 'meetup':
      return <MeetupDialog listingId={listing.id} roomId={roomId} open onClose={onClose} onDone={done} />;
    case 'show-code':
      return (
        <HandoffCodeDialog
          listingId={listing.id}
          listingName={listing.name}
          roomId={roomId}
          userId={myId}
          meetup={openMeetup(cards, listing.id)}
          open
          onClose={onClose}
        />
      );
    case 'enter-code':
      return (
        <HandoffEntryDialog
          listingId={listing.id}
          roomId={roomId}
          buyerName={peerFirstName}
          open
          onClose={onClose}
          onDone={done}
          onRelease={() => {
            onClose();
            onRelease();
          }}
        />
      );
    case 'rate':
      return toRate ? <RateDialog deal={toRate} open onClose={done} /> : null;
    default:
      return null;
  }
}
