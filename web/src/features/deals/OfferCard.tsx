import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  formatDollars,
  HOLD_MESSAGES,
  type BundleItem,
  type ListingStatus,
  type Offer,
} from '@campus/contract';
import { answerOffer, counterOffer, type OfferAnswer } from '../../api/deals';
import { Button } from '../../ui/Button';
import { TagIcon, WalletIcon } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { CardAction, CardFrame, cardAnchor, focusCard } from './CardFrame';
import { checkAmount, offerActions } from './rules';
import { useDealAction } from './useDealAction';
import { offerWords, type CardWords } from './wording';
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

/** A bundle offer's card says how many items it is for, and "the listing" becomes "all of them". */
function bundleWords(words: CardWords, count: number): CardWords {
  return {
    ...words,
    title: `${words.title} for ${count} items`,
    next: words.next.replace('reserve the listing', `reserve all ${count} items`),
  };
}

/** The items of a bundle offer (features.md §H): photo, name and asking price of each. */
function BundleItems({ items }: { items: readonly BundleItem[] }) {
  return (
    <ul aria-label="Items in this bundle" className="mt-2 space-y-1.5">
      {items.map((item) => (
        <li key={item.listingId} className="flex items-center gap-2.5">
          {item.thumbnailUrl ? (
            <img src={item.thumbnailUrl} alt="" className="size-9 shrink-0 rounded-md object-cover" />
          ) : (
            <span
              aria-hidden="true"
              className="grid size-9 shrink-0 place-items-center rounded-md bg-amber-50 text-amber-700"
            >
              <TagIcon size={16} />
            </span>
          )}
          <Link
            to={`/single_listing/${item.listingId}`}
            className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900 underline-offset-2 hover:underline"
          >
            {item.listingName}
          </Link>
          <span className="text-sm text-slate-600 tabular-nums">{formatDollars(item.price)}</span>
        </li>
      ))}
    </ul>
  );
}

/** An offer in the chat (features.md §A), with only the buttons this viewer may press. */
export function OfferCard({
  offer,
  myId,
  peerName,
  listingStatus,
  isCounter,
}: {
  offer: Offer;
  myId: number | null;
  peerName: string;
  listingStatus: ListingStatus | null;
  isCounter: boolean;
}) {
  const basis = useTimeBasis();
  const labelId = useId();
  const { busy, error, run } = useDealAction(offer.roomId);
  const [countering, setCountering] = useState(false);
  const counterButton = useRef<HTMLButtonElement>(null);
  const can = offerActions(offer, myId, listingStatus, basis.now);
  const words = offerWords(offer, myId, peerName, listingStatus, isCounter);
  const anchorId = cardAnchor('offer', offer.id);
  // After a step the card's buttons change or go: focus stays on the card, now in its new state.
  const answer = (what: OfferAnswer) =>
    void run(what, () => answerOffer(offer.id, what)).then((done) => {
      if (done) focusCard(anchorId);
    });
  const any = can.accept || can.decline || can.counter || can.withdraw;

  return (
    <CardFrame
      anchorId={anchorId}
      own={offer.byId === myId}
      kind="Offer"
      icon={<WalletIcon size={16} />}
      words={offer.items ? bundleWords(words, offer.items.length) : words}
      labelId={labelId}
      error={error}
      detail={
        offer.items || offer.holdUntil ? (
          <>
            {offer.items && <BundleItems items={offer.items} />}
            {offer.holdUntil && (
              <p className="mt-2 inline-flex rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-900 ring-1 ring-sky-300">
                {HOLD_MESSAGES.heldUntil(offer.holdUntil)}
              </p>
            )}
          </>
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
                if (made) {
                  setCountering(false);
                  focusCard(anchorId);
                }
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
