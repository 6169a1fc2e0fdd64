import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDollars, priceGuideLine, type PriceGuide } from '@campus/contract';
import { getPriceGuide, priceGuideKey, type PriceGuideAsk } from '../../api/freshness';
import { cx } from '../../ui/cx';
import { TagIcon } from '../../ui/icons';
import { priceGuideAsk, type GuideFields } from './priceGuideAsk';

/** Wait this long after the last keystroke before asking (a name is typed letter by letter). */
const TYPING_PAUSE_MS = 450;

/** The guide for an ask (null: not enough to ask, or fewer than 3 sales). */
export function usePriceGuide(ask: PriceGuideAsk | null): PriceGuide | null {
  const query = useQuery({
    queryKey: priceGuideKey(ask ?? {}),
    queryFn: ({ signal }) => getPriceGuide(ask ?? {}, signal),
    enabled: ask !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return ask !== null ? (query.data ?? null) : null;
}

function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // The key stands for the value: a new object with the same fields is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return settled;
}

/** "Sold on campus for $20–$35 · usually $25 · 7 sales this year". */
function GuideText({ guide }: { guide: PriceGuide }) {
  return (
    <>
      <span className="font-semibold text-slate-900">{priceGuideLine(guide)}</span>
      {guide.low !== guide.high && <span> · usually {formatDollars(guide.median)}</span>}
      <span className="text-slate-600"> · {guide.count} sales in the last year</span>
    </>
  );
}

/**
 * On the add and edit form (features.md §H): what such an item sold for on campus, as the student
 * types the name or picks the category, condition, course or ISBN. Nothing while there is too
 * little to go on or too few sales; announced politely when it appears.
 */
export function PriceGuideHint({ fields }: { fields: GuideFields }) {
  const ask = useSettled(priceGuideAsk(fields));
  const guide = usePriceGuide(ask);
  return (
    <div aria-live="polite" className={cx(!guide && 'sr-only')}>
      {guide && (
        <p className="flex items-start gap-2 rounded-xl border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-slate-800">
          <TagIcon size={18} className="mt-0.5 shrink-0 text-brand-700" />
          <span>
            <GuideText guide={guide} />
          </span>
        </p>
      )}
    </div>
  );
}

/** On a listing's page: the same guide for that listing, when there is one. */
export function ListingPriceGuide({ fields, className }: { fields: GuideFields; className?: string }) {
  const guide = usePriceGuide(priceGuideAsk(fields));
  if (!guide) return null;
  return (
    <p className={cx('flex items-start gap-2 text-sm text-slate-700', className)}>
      <TagIcon size={18} className="mt-0.5 shrink-0 text-brand-700" />
      <span>
        <GuideText guide={guide} />
      </span>
    </p>
  );
}
