import { useState, type FormEvent } from 'react';
import { DEALS_LIMITS, DEALS_MESSAGES, formatDollars, type Listing } from '@campus/contract';
import { makeOffer } from '../../api/deals';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { checkAmount } from './rules';
import { useDealAction } from './useDealAction';

/**
 * "Make an offer" (buyer, listing AVAILABLE): the asking price pre-filled, checked as the contract
 * does. Opened from the chat's deal bar, or from the listing page (which has no room yet: the
 * server opens it with the offer), where `onSent` takes the buyer on to the conversation.
 */
export function OfferDialog({
  listing,
  roomId,
  open,
  onClose,
  onSent,
  toPeer,
}: {
  listing: Listing;
  roomId: string;
  open: boolean;
  onClose: () => void;
  onSent?: () => void;
  /**
   * The seller offers the listing to the other student of this chat (their first name), at the
   * price the two agreed: accepting it reserves the listing for them.
   */
  toPeer?: string;
}) {
  const [value, setValue] = useState(String(listing.price));
  const [error, setError] = useState<string | null>(null);
  const action = useDealAction(roomId);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkAmount(value);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    const made = await action.run('offer', () =>
      makeOffer(listing.id, checked.amount, toPeer === undefined ? undefined : roomId),
    );
    if (made) (onSent ?? onClose)();
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={toPeer === undefined ? DEALS_MESSAGES.makeOffer : `Offer it to ${toPeer}`}
      description={`${listing.name} · asking ${formatDollars(listing.price)}`}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <TextField
          label={toPeer === undefined ? 'Your offer ($)' : 'The price you agreed ($)'}
          inputMode="decimal"
          autoComplete="off"
          data-autofocus
          value={value}
          error={error ?? action.error}
          hint={
            toPeer === undefined
              ? `The seller can accept, decline or counter. An offer expires after ${DEALS_LIMITS.offerExpiryHours} hours.`
              : `When ${toPeer} accepts, the listing is reserved for ${toPeer} at this price. An offer expires after ${DEALS_LIMITS.offerExpiryHours} hours.`
          }
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
            action.setError(null);
          }}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={action.busy !== null}>
            {toPeer === undefined ? 'Send offer' : `Offer to ${toPeer}`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
