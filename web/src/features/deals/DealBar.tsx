import { useRef, type ReactNode } from 'react';
import { DEALS_MESSAGES, type Listing } from '@campus/contract';
import { releaseReservation } from '../../api/deals';
import { Button } from '../../ui/Button';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { AlertIcon, InfoIcon, KeyIcon, PinIcon, WalletIcon } from '../../ui/icons';
import { toast } from '../../ui/toast';
import { isServer } from '../../ssr/request';
import { focusNextStep } from './ItemPin';
import type { DialogStep, NextStep } from './nextStep';
import { openMeetup, type DealCards } from './rules';
import { useDealAction } from './useDealAction';
import { useHandoffCode } from './useHandoffCode';

/** "This listing was deleted": the history stays, and so does the conversation. */
export function DeletedListingBanner() {
  return (
    <p
      role="note"
      className="flex shrink-0 items-center gap-2 border-t border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <InfoIcon size={16} className="shrink-0" /> {DEALS_MESSAGES.listingDeleted}
    </p>
  );
}

/**
 * The other deal actions of a conversation, above the composer: what the viewer may start besides
 * the pinned next step (ItemPin), e.g. a meet-up before a price is agreed, a new offer while one
 * waits, or releasing the reservation. The status and the next step are pinned at the top.
 */
export function DealBar({
  listing,
  roomId,
  myId,
  peerId,
  cards,
  primary,
  onOpen,
  releasing,
  setReleasing,
}: {
  listing: Listing;
  roomId: string;
  myId: number;
  peerId: number;
  cards: DealCards;
  /** The pinned next step's kind: not repeated here. */
  primary: NextStep['kind'] | null;
  onOpen: (step: DialogStep) => void;
  releasing: boolean;
  setReleasing: (on: boolean) => void;
}) {
  const releaseButton = useRef<HTMLButtonElement>(null);
  const action = useDealAction(roomId);
  const seller = listing.seller.id === myId;
  const reservedFor = listing.reservedFor?.id ?? null;
  const meetup = openMeetup(cards, listing.id);

  // A seller meets the buyer of this room; a reserved listing only with the student it is reserved for.
  const canMeet =
    listing.status !== 'SOLD' &&
    meetup === null &&
    (listing.status === 'AVAILABLE' || reservedFor === (seller ? peerId : myId));
  const showCode = !seller && listing.status === 'RESERVED' && reservedFor === myId;
  const enterCode = seller && listing.status === 'RESERVED' && reservedFor === peerId;
  // Fetched (and saved on the device) as soon as the chat offers it: the meet-up may have no signal.
  useHandoffCode(listing.id, myId, { roomId, listingName: listing.name }, showCode && !isServer);

  async function release() {
    const done = await action.run('release', () => releaseReservation(listing.id));
    setReleasing(false);
    if (done) {
      toast.success('Reservation released. The listing is available again.');
      focusNextStep();
    } else requestAnimationFrame(() => releaseButton.current?.focus());
  }

  const buttons: Array<{ step: DialogStep; label: string; icon: ReactNode }> = [];
  if (showCode && primary !== 'show-code')
    buttons.push({ step: 'show-code', label: DEALS_MESSAGES.showHandoff, icon: <KeyIcon size={16} /> });
  if (enterCode && primary !== 'enter-code')
    buttons.push({ step: 'enter-code', label: DEALS_MESSAGES.enterHandoff, icon: <KeyIcon size={16} /> });
  // While the seller's offer waits for an answer, its card's Counter is the way to offer another price.
  // A free item is claimed on its page, never offered for (features.md §H).
  if (
    !seller &&
    !listing.free &&
    listing.status === 'AVAILABLE' &&
    primary !== 'offer' &&
    primary !== 'answer-offer'
  )
    buttons.push({ step: 'offer', label: DEALS_MESSAGES.makeOffer, icon: <WalletIcon size={16} /> });
  if (canMeet && primary !== 'meetup')
    buttons.push({ step: 'meetup', label: DEALS_MESSAGES.proposeMeetup, icon: <PinIcon size={16} /> });

  if (buttons.length === 0 && !enterCode && !releasing) return null;

  return (
    <section
      aria-label="More actions"
      className="shrink-0 space-y-2 border-t border-slate-200 bg-white px-3 py-2 sm:px-5"
    >
      {releasing ? (
        <InlineConfirm
          message={DEALS_MESSAGES.releaseConfirm}
          confirmLabel={DEALS_MESSAGES.releaseReservation}
          busy={action.busy === 'release'}
          onConfirm={() => void release()}
          onCancel={() => {
            setReleasing(false);
            requestAnimationFrame(() => releaseButton.current?.focus());
          }}
        />
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {buttons.map((b) => (
            <Button
              key={b.step}
              size="sm"
              variant="secondary"
              onClick={() => onOpen(b.step)}
              leadingIcon={b.icon}
            >
              {b.label}
            </Button>
          ))}
          {enterCode && (
            <Button ref={releaseButton} size="sm" variant="ghost" onClick={() => setReleasing(true)}>
              {DEALS_MESSAGES.releaseReservation}
            </Button>
          )}
        </div>
      )}
      {action.error && (
        <p role="alert" className="flex items-start gap-1.5 text-sm font-medium text-red-700">
          <AlertIcon size={16} className="mt-0.5 shrink-0" />
          {action.error}
        </p>
      )}
    </section>
  );
}
