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
}: {
  listing: Listing;
  roomId: string;
  open: boolean;
  onClose: () => void;
  onSent?: () => void;
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
      makeOffer(listing.id, checked.amount, holding ? holdUntil : undefined),
    );
    if (made) (onSent ?? onClose)();
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={DEALS_MESSAGES.makeOffer}
      description={`${listing.name} · asking ${formatDollars(listing.price)}`}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <TextField
          label="Your offer ($)"
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          value={value}
          error={error ?? action.error}
          hint={`The seller can accept, decline or counter. An offer expires after ${DEALS_LIMITS.offerExpiryHours} hours.`}
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
            Send offer
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
