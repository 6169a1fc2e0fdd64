import { useState, type FormEvent } from 'react';
import {
  DEALS_LIMITS,
  DEALS_MESSAGES,
  HOLD_LIMITS,
  HOLD_MESSAGES,
  formatDollars,
  type Listing,
} from '@campus/contract';
import { makeOffer } from '../../api/deals';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { checkAmount } from './rules';
import { localDay } from '../moving-out/days';
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
  const [holding, setHolding] = useState(false);
  const [holdUntil, setHoldUntil] = useState('');
  const [holdError, setHoldError] = useState<string | null>(null);
  const action = useDealAction(roomId);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkAmount(value);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    if (holding && !holdUntil) {
      setHoldError(HOLD_MESSAGES.holdInvalid);
      return;
    }
    const made = await action.run('offer', () =>
      makeOffer(listing.id, checked.amount, {
        roomId: toPeer === undefined ? undefined : roomId,
        holdUntil: holding ? holdUntil : undefined,
      }),
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
        <div className="rounded-xl border border-slate-200 bg-slate-50 p-3">
          <label className="flex items-start gap-3 text-sm font-medium text-slate-900">
            <input
              type="checkbox"
              className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-400 accent-brand-700"
              checked={holding}
              onChange={(e) => {
                setHolding(e.target.checked);
                setHoldError(null);
              }}
            />
            <span>
              {HOLD_MESSAGES.holdOption}
              <span className="mt-0.5 block font-normal text-slate-600">
                The seller keeps it for you until that day (up to {HOLD_LIMITS.maxDaysAhead} days ahead).
              </span>
            </span>
          </label>
          {holding && (
            <TextField
              containerClassName="mt-3"
              label="Hold until"
              type="date"
              min={localDay(1)}
              max={localDay(HOLD_LIMITS.maxDaysAhead)}
              value={holdUntil}
              error={holdError}
              onChange={(e) => {
                setHoldUntil(e.target.value);
                setHoldError(null);
              }}
            />
          )}
        </div>
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
