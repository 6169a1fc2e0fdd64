import { useId } from 'react';
import { cx } from '../../../ui/cx';

const STAR_PATH = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

/**
 * A read-only star rating: five stars filled to `value` (fractions show as a partly filled star).
 * Screen readers hear "4.5 out of 5 stars" instead of five pictures.
 */
export function Stars({ value, size = 18, className }: { value: number; size?: number; className?: string }) {
  const id = useId();
  return (
    <span
      role="img"
      aria-label={`${formatStars(value)} out of 5 stars`}
      className={cx('inline-flex', className)}
    >
      {[0, 1, 2, 3, 4].map((i) => {
        const fill = Math.max(0, Math.min(1, value - i));
        const gradient = `${id}-${i}`;
        return (
          <svg key={i} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <defs>
              <linearGradient id={gradient}>
                <stop offset={`${fill * 100}%`} stopColor="currentColor" />
                <stop offset={`${fill * 100}%`} stopColor="transparent" />
              </linearGradient>
            </defs>
            <path
              d={STAR_PATH}
              fill={`url(#${gradient})`}
              stroke="currentColor"
              strokeWidth={1.5}
              strokeLinejoin="round"
              className="text-amber-500"
            />
          </svg>
        );
      })}
    </span>
  );
}

export function formatStars(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export { STAR_PATH };
