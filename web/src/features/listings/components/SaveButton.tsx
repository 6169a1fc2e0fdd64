import type { Listing } from '@campus/contract';
import { cx } from '../../../ui/cx';
import { HeartIcon } from '../../../ui/icons';
import { useSaveListing } from '../hooks/useSaveListing';

/**
 * The heart toggle (aria-pressed) on cards and the detail page. `overlay`: a round button on the
 * photo; `inline`: a labelled button ("Save" / "Saved") beside the price.
 */
export function SaveButton({
  listing,
  variant = 'overlay',
  className,
}: {
  listing: Listing;
  variant?: 'overlay' | 'inline';
  className?: string;
}) {
  const save = useSaveListing();
  const saved = listing.savedByMe;
  const onClick = () => void save(listing, !saved);
  if (variant === 'inline') {
    return (
      <button
        type="button"
        aria-pressed={saved}
        onClick={onClick}
        className={cx(
          'inline-flex h-11 items-center gap-2 rounded-xl border px-4 text-sm font-semibold shadow-sm transition-colors',
          saved
            ? 'border-rose-200 bg-rose-50 text-rose-700 hover:bg-rose-100'
            : 'border-slate-300 bg-white text-slate-800 hover:border-slate-400 hover:bg-slate-50',
          className,
        )}
      >
        <HeartIcon filled={saved} size={20} className={saved ? 'text-rose-600' : 'text-slate-600'} />
        {saved ? 'Saved' : 'Save'}
        <span className="sr-only"> {listing.name}</span>
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={`Save ${listing.name}`}
      title={saved ? 'Saved: tap to remove' : 'Save for later'}
      onClick={onClick}
      className={cx(
        'flex h-10 w-10 items-center justify-center rounded-full bg-white/95 shadow-md ring-1 ring-slate-900/10 transition hover:scale-105 hover:bg-white',
        saved ? 'text-rose-600' : 'text-slate-700',
        className,
      )}
    >
      <HeartIcon filled={saved} size={20} />
    </button>
  );
}
