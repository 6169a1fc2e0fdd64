import { useEffect } from 'react';
import { formatDollars, type Listing } from '@campus/contract';
import { Link } from 'react-router';
import { chatImageUrl } from '../../api/chat';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import {
  ArrowRightIcon,
  ChevronRightIcon,
  HandshakeIcon,
  KeyIcon,
  PinIcon,
  TagIcon,
  WalletIcon,
} from '../../ui/icons';
import type { NextStep } from './nextStep';

/** The pinned next step's button id: focus returns to it after each deal step (DealDialogs). */
export const NEXT_STEP_ID = 'deal-next-step';
const PIN_ID = 'deal-pin';

/**
 * When a deal step last asked for focus. The next step can arrive after the step's own answer (the
 * hand-off's "Rate" waits for the deals list), so for a few seconds the step that appears takes it.
 */
let focusWantedAt = 0;
const FOCUS_FOLLOWS_MS = 5_000;

/** After a deal step: focus the next step, or the pinned item when there is none left (yet). */
export function focusNextStep(): void {
  focusWantedAt = Date.now();
  requestAnimationFrame(() => {
    (document.getElementById(NEXT_STEP_ID) ?? document.getElementById(PIN_ID))?.focus();
  });
}

function statusBadge(listing: Listing, myId: number, peerId: number, peer: string) {
  if (listing.status === 'SOLD') return { text: 'Sold', tone: 'bg-slate-800 text-white' };
  if (listing.status === 'RESERVED') {
    const who = listing.reservedFor?.id;
    const text =
      who === myId
        ? listing.free
          ? 'Free pickup for you'
          : 'Reserved for you'
        : who === peerId
          ? `Reserved for ${peer}`
          : 'Reserved';
    return { text, tone: 'bg-accent-100 text-slate-900' };
  }
  return { text: listing.free ? 'Free' : 'Available', tone: 'bg-brand-100 text-brand-900' };
}

const ICONS: Record<NextStep['kind'], typeof WalletIcon> = {
  'answer-offer': WalletIcon,
  'wait-offer': ArrowRightIcon,
  'answer-meetup': PinIcon,
  'wait-meetup': ArrowRightIcon,
  offer: WalletIcon,
  'seller-offer': HandshakeIcon,
  meetup: PinIcon,
  'show-code': KeyIcon,
  'enter-code': KeyIcon,
  rate: HandshakeIcon,
};

/**
 * The item and the deal, pinned under the chat header: photo, name, price, status, and the ONE
 * next step for this viewer (nextStep.ts). Compact on phones (one line for the item, one for the
 * step); one row on wide screens. It re-renders as system messages update the cards and listing.
 */
export function ItemPin({
  listing,
  myId,
  peerId,
  peer,
  step,
  onStep,
  agreed,
}: {
  /** The price the two agreed (an accepted offer), shown instead of the asking price. */
  agreed: number | null;
  listing: Listing;
  myId: number;
  peerId: number;
  peer: string;
  step: NextStep | null;
  onStep: (step: NextStep) => void;
}) {
  const stepLabel = step?.label;
  useEffect(() => {
    if (!stepLabel || Date.now() - focusWantedAt > FOCUS_FOLLOWS_MS) return;
    // Only when focus is still ours to move: on the pin, or lost to the page.
    const active = document.activeElement;
    if (active && active !== document.body && active.id !== PIN_ID) return;
    focusWantedAt = 0;
    document.getElementById(NEXT_STEP_ID)?.focus();
  }, [stepLabel]);
  const badge = statusBadge(listing, myId, peerId, peer);
  const waiting = step?.kind === 'wait-offer' || step?.kind === 'wait-meetup';
  const Icon = step ? ICONS[step.kind] : null;
  return (
    <section
      id={PIN_ID}
      tabIndex={-1}
      aria-label="Deal"
      className="flex shrink-0 flex-col gap-2 border-b border-slate-200 bg-white px-3 py-2 outline-none sm:flex-row sm:items-center sm:gap-4 sm:px-5"
    >
      <Link
        to={`/single_listing/${listing.id}`}
        className="group flex min-w-0 flex-1 items-center gap-3 rounded-lg"
      >
        {listing.thumbnailUrl ? (
          <img
            src={chatImageUrl(listing.thumbnailUrl)}
            alt=""
            className="h-10 w-10 shrink-0 rounded-lg object-cover ring-1 ring-slate-200"
          />
        ) : (
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
            <TagIcon size={18} />
          </span>
        )}
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold text-slate-900 group-hover:underline">
            <span className="sr-only">About the listing </span>
            {listing.name}
          </span>
          <span className="mt-0.5 flex items-center gap-2 text-sm">
            {agreed !== null && agreed !== listing.price ? (
              <span className="tabular-nums">
                <span className="font-bold text-slate-900">{formatDollars(agreed)}</span>{' '}
                <span className="text-slate-600">
                  agreed<span className="sr-only">, asking</span>{' '}
                  <s aria-hidden="true">{formatDollars(listing.price)}</s>
                  <span className="sr-only">{formatDollars(listing.price)}</span>
                </span>
              </span>
            ) : listing.free ? null : (
              <span className="font-bold text-slate-900 tabular-nums">{formatDollars(listing.price)}</span>
            )}
            <span className={cx('rounded-full px-2 py-0.5 text-xs font-bold', badge.tone)}>{badge.text}</span>
          </span>
        </span>
        <ChevronRightIcon size={16} className="shrink-0 text-slate-400" />
      </Link>
      {step && Icon && (
        <Button
          id={NEXT_STEP_ID}
          size="sm"
          variant={waiting ? 'secondary' : 'primary'}
          className="w-full shrink-0 sm:w-auto"
          leadingIcon={<Icon size={16} />}
          onClick={() => onStep(step)}
        >
          {step.label}
        </Button>
      )}
    </section>
  );
}
