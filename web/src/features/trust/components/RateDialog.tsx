import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  REVIEW_TAGS,
  REVIEW_TAG_LABELS,
  TRUST_LIMITS,
  TRUST_MESSAGES,
  type DealWithReviews,
  type ReviewTag,
} from '@campus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { serverMessageOf } from '../../../api/client';
import { postReview, trustKeys } from '../../../api/trust';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { CloseIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { STAR_PATH } from './Stars';

const STAR_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

/**
 * "Rate {name}" (features.md §A): stars (a radio group, arrow keys move between them), tags and an
 * optional text, in a modal <dialog> (focus is kept inside and returns to the opener on close).
 */
export function RateDialog({
  deal,
  open,
  onClose,
  onRated,
}: {
  deal: DealWithReviews;
  open: boolean;
  onClose: () => void;
  onRated?: (deal: DealWithReviews) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const titleId = useId();
  const starsErrorId = useId();
  const [stars, setStars] = useState(0);
  const [tags, setTags] = useState<ReviewTag[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = deal.counterpart.firstName || 'this student';

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (stars < 1) {
      setError(TRUST_MESSAGES.starsInvalid);
      ref.current?.querySelector<HTMLInputElement>('input[name="stars"]')?.focus();
      return;
    }
    setBusy(true);
    try {
      const updated = await postReview(deal.id, { stars, tags, text });
      await queryClient.invalidateQueries({ queryKey: trustKeys.deals });
      void queryClient.invalidateQueries({ queryKey: ['trust', 'profile'] });
      void queryClient.invalidateQueries({ queryKey: ['trust', 'reviews'] });
      toast.success(
        updated.revealed
          ? `Review saved. ${name}'s review of you is now visible.`
          : TRUST_MESSAGES.reviewSaved,
      );
      onRated?.(updated);
      onClose();
    } catch (err) {
      setError(serverMessageOf(err) ?? 'Could not save your review. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-0 text-slate-900 shadow-lift backdrop:bg-slate-900/50"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5 p-5 sm:p-6">
        <div className="flex items-start justify-between gap-3">
          <div>
            <h2 id={titleId} className="text-xl font-bold tracking-tight">
              Rate {name}
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {deal.role === 'BUYER' ? 'You bought' : 'You sold'} <strong>{deal.listingName}</strong>. Your
              review stays hidden until {name} rates you too, or the review period ends.
            </p>
          </div>
          <button
            type="button"
            onClick={onClose}
            className="-m-1 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            <CloseIcon size={20} />
            <span className="sr-only">Close</span>
          </button>
        </div>

        <fieldset aria-describedby={error && stars < 1 ? starsErrorId : undefined}>
          <legend className="text-sm font-medium text-slate-800">How was it?</legend>
          <div className="mt-2 flex items-center gap-1">
            {[1, 2, 3, 4, 5].map((n) => (
              <label
                key={n}
                className="cursor-pointer rounded-lg p-0.5 has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-brand-200"
              >
                <input
                  type="radio"
                  name="stars"
                  value={n}
                  checked={stars === n}
                  onChange={() => {
                    setStars(n);
                    setError(null);
                  }}
                  className="sr-only"
                />
                <span className="sr-only">
                  {n} {n === 1 ? 'star' : 'stars'}: {STAR_WORDS[n]}
                </span>
                <svg width={40} height={40} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path
                    d={STAR_PATH}
                    strokeWidth={1.5}
                    strokeLinejoin="round"
                    className={cx(
                      'transition-colors',
                      n <= stars ? 'fill-amber-400 stroke-amber-500' : 'fill-transparent stroke-slate-400',
                    )}
                  />
                </svg>
              </label>
            ))}
            <span className="ml-2 text-sm font-medium text-slate-700" aria-hidden="true">
              {STAR_WORDS[stars]}
            </span>
          </div>
          {error && stars < 1 && (
            <p id={starsErrorId} className="mt-1 text-sm font-medium text-red-700">
              {error}
            </p>
          )}
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">What stood out? (optional)</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {REVIEW_TAGS.map((tag) => {
              const on = tags.includes(tag);
              return (
                <label
                  key={tag}
                  className={cx(
                    'cursor-pointer rounded-full border px-3 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-brand-200',
                    on
                      ? 'border-brand-600 bg-brand-50 text-brand-800'
                      : 'border-slate-300 text-slate-700 hover:border-slate-400',
                  )}
                >
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={() => setTags((prev) => (on ? prev.filter((t) => t !== tag) : [...prev, tag]))}
                    className="sr-only"
                  />
                  {REVIEW_TAG_LABELS[tag]}
                </label>
              );
            })}
          </div>
        </fieldset>

        <div className="space-y-1.5">
          <label htmlFor={`${titleId}-text`} className="block text-sm font-medium text-slate-800">
            A few words (optional)
          </label>
          <textarea
            id={`${titleId}-text`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={TRUST_LIMITS.reviewTextMax}
            rows={3}
            className="block w-full rounded-xl border border-slate-300 px-3.5 py-2.5 text-base shadow-xs focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none sm:text-sm"
          />
          <p className="text-right text-xs text-slate-600">
            {text.length}/{TRUST_LIMITS.reviewTextMax}
          </p>
        </div>

        {error && stars >= 1 && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Not now
          </Button>
          <Button type="submit" loading={busy}>
            Send review
          </Button>
        </div>
      </form>
    </dialog>
  );
}
