import { useState } from 'react';
import { DEALS_MESSAGES, roomIdFor, type Listing, type ReservedFor } from '@campus/contract';
import { Button } from '../../ui/Button';
import { HandoffEntryDialog } from './HandoffDialogs';

/**
 * Shown instead of a one-tap sale when the seller presses "Mark as Sold" on a reserved listing: the
 * way that records the deal (the reserved buyer's hand-off code, the seller's hand-off dialog) comes
 * first; selling without a deal is offered with what it costs said plainly. The server ends the
 * reservation properly either way (offer cancelled, both told in the chat).
 */
export function ReservedSoldPanel({
  listing,
  buyer,
  sellerId,
  busy,
  onSellWithoutDeal,
  onCancel,
}: {
  listing: Pick<Listing, 'id'>;
  buyer: ReservedFor;
  sellerId: number;
  busy: boolean;
  onSellWithoutDeal: () => void;
  onCancel: () => void;
}) {
  const [entering, setEntering] = useState(false);
  const [warned, setWarned] = useState(false);
  return (
    <div role="alertdialog" aria-label={DEALS_MESSAGES.soldReservedTitle} className="flex flex-col gap-2">
      <p className="font-semibold text-slate-900">{DEALS_MESSAGES.soldReservedTitle}</p>
      <p className="text-sm text-slate-700">{DEALS_MESSAGES.soldReservedHint(buyer.firstName)}</p>
      {warned && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {DEALS_MESSAGES.soldWithoutDealWarning(buyer.firstName)}
        </p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button size="sm" onClick={() => setEntering(true)} disabled={busy}>
          {DEALS_MESSAGES.enterHandoff}
        </Button>
        <Button
          size="sm"
          variant="danger-outline"
          disabled={busy}
          onClick={() => (warned ? onSellWithoutDeal() : setWarned(true))}
        >
          {warned ? `${DEALS_MESSAGES.soldWithoutDeal}: confirm` : DEALS_MESSAGES.soldWithoutDeal}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
      {entering && (
        <HandoffEntryDialog
          listingId={listing.id}
          roomId={roomIdFor(sellerId, buyer.id)}
          buyerName={buyer.firstName}
          open
          onClose={() => {
            setEntering(false);
            onCancel();
          }}
          onRelease={() => setEntering(false)}
        />
      )}
    </div>
  );
}
