import { useId, useRef, useState, type FormEvent } from 'react';
import { HOLD_MESSAGES, type ListingStatus, type Offer } from '@campus/contract';
import { answerOffer, counterOffer, type OfferAnswer } from '../../api/deals';
import { Button } from '../../ui/Button';
import { WalletIcon } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { CardAction, CardFrame } from './CardFrame';
import { checkAmount, offerActions } from './rules';
import { useDealAction } from './useDealAction';
import { offerWords } from './wording';
import { useTimeBasis } from '../../ui/timeBasis';

/** The counter-offer field, shown in the card when "Counter" is pressed. */
function CounterForm({
  offer,
  busy,
  onSubmit,
  onCancel,
}: {
  offer: Offer;
  busy: boolean;
  onSubmit: (amount: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(String(offer.amount));
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkAmount(value);
    if ('error' in checked) setError(checked.error);
    else onSubmit(checked.amount);
  }
  return (
    <form onSubmit={submit} noValidate className="mt-3 space-y-2 rounded-xl bg-slate-50 p-3">
      <TextField
        label="Your counter-offer ($)"
        inputMode="decimal"
        autoComplete="off"
        autoFocus
        value={value}
        error={error}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
        }}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={busy}>
          Send counter-offer
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** An offer in the chat (features.md §A), with only the buttons this viewer may press. */
export function OfferCard({
  offer,
  myId,
  peerName,
  listingStatus,
}: {
  offer: Offer;
  myId: number | null;
  peerName: string;
  listingStatus: ListingStatus | null;
}) {
  const basis = useTimeBasis();
  const labelId = useId();
  const { busy, error, run } = useDealAction(offer.roomId);
  const [countering, setCountering] = useState(false);
  const counterButton = useRef<HTMLButtonElement>(null);
  const can = offerActions(offer, myId, listingStatus, basis.now);
  const words = offerWords(offer, myId, peerName, listingStatus);
  const answer = (what: OfferAnswer) => void run(what, () => answerOffer(offer.id, what));
  const any = can.accept || can.decline || can.counter || can.withdraw;

  return (
    <CardFrame
      own={offer.byId === myId}
      kind="Offer"
      icon={<WalletIcon size={16} />}
      words={words}
      labelId={labelId}
      error={error}
      detail={
        offer.holdUntil ? (
          <p className="mt-2 inline-flex rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-900 ring-1 ring-sky-300">
            {HOLD_MESSAGES.heldUntil(offer.holdUntil)}
          </p>
        ) : undefined
      }
      actions={
        countering && can.counter ? (
          <CounterForm
            offer={offer}
            busy={busy === 'counter'}
            onCancel={() => {
              setCountering(false);
              requestAnimationFrame(() => counterButton.current?.focus());
            }}
            onSubmit={(amount) =>
              void run('counter', () => counterOffer(offer.id, amount)).then((made) => {
                if (made) setCountering(false);
              })
            }
          />
        ) : any ? (
          <div className="mt-3 flex flex-wrap gap-2">
            {can.accept && (
              <CardAction name="accept" busy={busy} onPress={() => answer('accept')}>
                Accept
              </CardAction>
            )}
            {can.counter && (
              <Button
                ref={counterButton}
                size="sm"
                variant="secondary"
                disabled={busy !== null}
                onClick={() => setCountering(true)}
              >
                Counter
              </Button>
            )}
            {can.decline && (
              <CardAction
                name="decline"
                busy={busy}
                variant="danger-outline"
                onPress={() => answer('decline')}
              >
                Decline
              </CardAction>
            )}
            {can.withdraw && (
              <CardAction name="withdraw" busy={busy} variant="secondary" onPress={() => answer('withdraw')}>
                Withdraw
              </CardAction>
            )}
          </div>
        ) : null
      }
    />
  );
}
