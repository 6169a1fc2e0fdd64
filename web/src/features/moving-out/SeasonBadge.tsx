import { HOLD_MESSAGES, MOVE_OUT_MESSAGES, type Listing } from '@campus/contract';
import { useMyUserId } from '../../session/useCurrentUser';
import { cx } from '../../ui/cx';

const BADGE = 'inline-flex items-center gap-1 rounded-lg px-2.5 py-0.5 text-xs leading-snug font-semibold';

/**
 * The move-out season on a listing (features.md §H): "Must go by Aug 25" while its seller is moving
 * out, or "Held for Omar until Aug 25" (the buyer's name only for the two students who know it).
 */
export function SeasonBadge({
  listing,
  className,
}: {
  listing: Pick<Listing, 'mustGoBy' | 'heldUntil' | 'reservedFor'>;
  className?: string;
}) {
  const userId = useMyUserId();
  if (listing.mustGoBy) {
    return (
      <span className={cx(BADGE, 'bg-orange-100 text-orange-900 ring-1 ring-orange-300', className)}>
        <svg
          aria-hidden="true"
          width="12"
          height="12"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </svg>
        {MOVE_OUT_MESSAGES.mustGoBy(listing.mustGoBy)}
      </span>
    );
  }
  if (listing.heldUntil) {
    const who = listing.reservedFor;
    const text = !who
      ? HOLD_MESSAGES.heldUntil(listing.heldUntil)
      : who.id === userId
        ? HOLD_MESSAGES.heldForYou(listing.heldUntil)
        : HOLD_MESSAGES.heldFor(who.firstName, listing.heldUntil);
    return (
      <span className={cx(BADGE, 'bg-sky-100 text-sky-900 ring-1 ring-sky-300', className)}>{text}</span>
    );
  }
  return null;
}
