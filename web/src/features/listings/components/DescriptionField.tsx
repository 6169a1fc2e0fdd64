import { useId, useLayoutEffect, useRef, useState } from 'react';
import { LIMITS, MESSAGES } from '@campus/contract';
import { cx } from '../../../ui/cx';
import { FieldError, fieldStateClasses, limitText } from '../../../ui/forms';
import { inputClasses } from '../../../ui/TextField';

const DESCRIPTION_MAX_HEIGHT = 240;

/**
 * The listing description: a counter against the limit, a box that grows with its text up to
 * 240 px, and a note when pasted text was cut to the limit.
 */
export function DescriptionField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [cut, setCut] = useState(false);
  const count = value.length;
  const nearLimit = count >= LIMITS.descriptionMax - 50;

  // Description grows with its text up to 240 px, then scrolls.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const next = Math.min(el.scrollHeight + 2, DESCRIPTION_MAX_HEIGHT);
    el.style.height = `${next}px`;
    el.style.overflowY = el.scrollHeight + 2 > DESCRIPTION_MAX_HEIGHT ? 'auto' : 'hidden';
  }, [value]);

  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          Description
        </label>
        <span
          id={`${id}-count`}
          className={cx(
            'text-xs tabular-nums',
            nearLimit ? 'font-semibold text-amber-800' : 'text-slate-600',
          )}
        >
          {count}/{LIMITS.descriptionMax}
          <span className="sr-only"> characters</span>
        </span>
      </div>
      <textarea
        ref={ref}
        id={id}
        name="description"
        rows={3}
        value={value}
        onChange={(e) => {
          const next = limitText(e, LIMITS.descriptionMax);
          onChange(next.value);
          setCut(next.cut);
        }}
        placeholder="Edition or size, what's included, when you can meet…"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={cx(`${id}-count`, error && `${id}-error`)}
        className={cx(
          inputClasses,
          'h-auto min-h-24 resize-none py-2.5 leading-relaxed',
          fieldStateClasses(error),
        )}
      />
      <p aria-live="polite" className="text-sm font-semibold text-amber-800">
        {cut ? MESSAGES.listingDescriptionCut(LIMITS.descriptionMax) : ''}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
