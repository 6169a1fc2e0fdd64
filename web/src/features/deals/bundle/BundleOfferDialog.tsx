import { useState, type FormEvent } from 'react';
import { BUNDLE_MESSAGES, DEALS_LIMITS, formatDollars, roomIdFor } from '@campus/contract';
import { makeBundle } from '../../../api/deals';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/TextField';
import { checkAmount } from '../rules';
import { useDealAction } from '../useDealAction';
import { askingTotal, type BundlePick } from './useBundlePicks';

/** "Offer for the bundle": the total asking price pre-filled, checked as the contract does. */
export default function BundleOfferDialog({
  picks,
  roomSeller,
  myId,
  onClose,
  onSent,
}: {
  picks: readonly BundlePick[];
  roomSeller: number;
  myId: number;
  onClose: () => void;
  onSent: () => void;
}) {
  const total = askingTotal(picks);
  const [value, setValue] = useState(String(total));
  const [error, setError] = useState<string | null>(null);
  const action = useDealAction(roomIdFor(myId, roomSeller));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkAmount(value);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    const made = await action.run('bundle', () =>
      makeBundle(
        picks.map((p) => p.id),
        checked.amount,
      ),
    );
    if (made) onSent();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={BUNDLE_MESSAGES.offerForBundle}
      description={`${BUNDLE_MESSAGES.bundleLabel(picks.length)} · ${BUNDLE_MESSAGES.askingTotal(total).toLowerCase()}`}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <ul aria-label="Items in the bundle" className="space-y-1 text-sm text-slate-700">
          {picks.map((p) => (
            <li key={p.id} className="flex justify-between gap-3">
              <span className="min-w-0 truncate">{p.name}</span>
              <span className="tabular-nums">{formatDollars(p.price)}</span>
            </li>
          ))}
        </ul>
        <TextField
          label="Your offer for all of them ($)"
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          value={value}
          error={error ?? action.error}
          hint={`The seller can accept, decline or counter. Accepting reserves every item for you. An offer expires after ${DEALS_LIMITS.offerExpiryHours} hours.`}
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
            Send bundle offer
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
