import { useRef, useState } from 'react';
import { DEALS_MESSAGES, type DealWithReviews, type Listing } from '@campus/contract';
import { releaseReservation } from '../../api/deals';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { AlertIcon, HandshakeIcon, InfoIcon, KeyIcon, PinIcon, WalletIcon } from '../../ui/icons';
import { toast } from '../../ui/toast';
import { RateDialog } from '../trust/components/RateDialog';
import { isServer } from '../../ssr/request';
import { HandoffCodeDialog, HandoffEntryDialog } from './HandoffDialogs';
import { MeetupDialog } from './MeetupDialog';
import { OfferDialog } from './OfferDialog';
import { openMeetup, type DealCards } from './rules';
import { useDealAction } from './useDealAction';
import { useHandoffCode } from './useHandoffCode';

type Open = 'offer' | 'meetup' | 'code' | 'entry' | null;

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

/** After a confirmed hand-off: "Rate {name}", opening the trust module's RateDialog. */
function RatePrompt({ deal }: { deal: DealWithReviews }) {
  const [open, setOpen] = useState(false);
  const name = deal.counterpart.firstName || 'them';
  return (
    // Stacked on phones (the sentence reads in two lines, not four beside the button).
    <div className="flex flex-col gap-2 rounded-xl bg-brand-50 px-3 py-2 sm:flex-row sm:items-center sm:gap-3">
      <p className="min-w-0 flex-1 text-sm text-brand-950">{DEALS_MESSAGES.ratePrompt(name)}</p>
      <Button
        size="sm"
        className="self-start sm:self-auto"
        onClick={() => setOpen(true)}
        leadingIcon={<HandshakeIcon size={16} />}
      >
        {DEALS_MESSAGES.rate(name)}
      </Button>
      {open && <RateDialog deal={deal} open onClose={() => setOpen(false)} />}
    </div>
  );
}

/**
 * The deal actions of a conversation, above the composer: what the viewer may start from here
 * (offer, meet-up, hand-off, release) given the listing's status and their side, and the rating
 * prompt once the deal is done. Cards in the thread carry the answers to offers and meet-ups.
 */
export function DealBar({
  listing,
  roomId,
  myId,
  peerId,
  peerFirstName,
  cards,
  toRate,
}: {
  listing: Listing;
  roomId: string;
  myId: number;
  peerId: number;
  peerFirstName: string;
  cards: DealCards;
  toRate: DealWithReviews | null;
}) {
  const [open, setOpen] = useState<Open>(null);
  const [releasing, setReleasing] = useState(false);
  const releaseButton = useRef<HTMLButtonElement>(null);
  const action = useDealAction(roomId);
  const seller = listing.seller.id === myId;
  const reservedFor = listing.reservedFor?.id ?? null;
  const meetup = openMeetup(cards, listing.id);
  const close = () => setOpen(null);

  // A free item is claimed on its page, never offered for (features.md §H).
  const canOffer = !seller && listing.status === 'AVAILABLE' && !listing.free;
  // A seller meets the buyer of this room; a reserved listing only with the student it is reserved for.
  const canMeet =
    listing.status !== 'SOLD' &&
    meetup === null &&
    (listing.status === 'AVAILABLE' || reservedFor === (seller ? peerId : myId));
  const showCode = !seller && listing.status === 'RESERVED' && reservedFor === myId;
  const enterCode = seller && listing.status === 'RESERVED' && reservedFor === peerId;
  // Fetched (and saved on the device) as soon as the button shows: the meet-up may have no signal.
  useHandoffCode(listing.id, myId, { roomId, listingName: listing.name }, showCode && !isServer);

  async function release() {
    const done = await action.run('release', () => releaseReservation(listing.id));
    setReleasing(false);
    if (done) toast.success('Reservation released. The listing is available again.');
    else requestAnimationFrame(() => releaseButton.current?.focus());
  }

  let status: string | null = null;
  if (listing.status === 'RESERVED') {
    status =
      listing.free && reservedFor === myId
        ? 'Free pickup for you'
        : reservedFor === myId
          ? 'Reserved for you'
          : reservedFor === peerId
            ? `Reserved for ${peerFirstName}`
            : 'Reserved';
  } else if (listing.status === 'SOLD') status = 'Sold';

  if (!canOffer && !canMeet && !showCode && !enterCode && !toRate && !status) return null;

  return (
    <section
      aria-label="Deal"
      className="shrink-0 space-y-2 border-t border-slate-200 bg-white px-3 py-2 sm:px-5"
    >
      {toRate && <RatePrompt deal={toRate} />}
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
          {status && (
            <span
              className={cx(
                'mr-1 inline-flex items-center rounded-full px-2.5 py-1 text-xs font-bold',
                // The listing badges' colours: amber for reserved, dark for sold.
                listing.status === 'SOLD' ? 'bg-slate-800 text-white' : 'bg-accent-100 text-slate-900',
              )}
            >
              {status}
            </span>
          )}
          {showCode && (
            <Button size="sm" onClick={() => setOpen('code')} leadingIcon={<KeyIcon size={16} />}>
              {DEALS_MESSAGES.showHandoff}
            </Button>
          )}
          {enterCode && (
            <Button size="sm" onClick={() => setOpen('entry')} leadingIcon={<KeyIcon size={16} />}>
              {DEALS_MESSAGES.enterHandoff}
            </Button>
          )}
          {canOffer && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setOpen('offer')}
              leadingIcon={<WalletIcon size={16} />}
            >
              {DEALS_MESSAGES.makeOffer}
            </Button>
          )}
          {canMeet && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setOpen('meetup')}
              leadingIcon={<PinIcon size={16} />}
            >
              {DEALS_MESSAGES.proposeMeetup}
            </Button>
          )}
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
      {open === 'offer' && <OfferDialog listing={listing} roomId={roomId} open onClose={close} />}
      {open === 'meetup' && <MeetupDialog listingId={listing.id} roomId={roomId} open onClose={close} />}
      {open === 'code' && (
        <HandoffCodeDialog
          listingId={listing.id}
          listingName={listing.name}
          roomId={roomId}
          userId={myId}
          meetup={meetup}
          open
          onClose={close}
        />
      )}
      {open === 'entry' && (
        <HandoffEntryDialog
          listingId={listing.id}
          roomId={roomId}
          buyerName={peerFirstName}
          open
          onClose={close}
          onRelease={() => {
            close();
            setReleasing(true);
          }}
        />
      )}
    </section>
  );
}
