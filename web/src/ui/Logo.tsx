import { Link } from 'react-router';
import { cx } from './cx';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      className={cx('h-8 w-8 shrink-0', className)}
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="9" fill="#18453b" />
      <path d="M9 12.5h14l-1.3 11.2a2 2 0 0 1-2 1.8h-7.4a2 2 0 0 1-2-1.8z" fill="#fff" />
      <path
        d="M12.5 12.5V11a3.5 3.5 0 0 1 7 0v1.5"
        fill="none"
        stroke="#f8c35a"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * Product logo linking to / (spec §2 top bar). With `campus`, the campus's name sits under the
 * word mark (features.md §E: one deployment serves many campuses, each student sees theirs).
 */
export function Logo({
  tone = 'dark',
  campus,
  className,
}: {
  tone?: 'dark' | 'light';
  campus?: string | null;
  className?: string;
}) {
  const wordmark = (
    <span
      className={cx('text-base leading-none sm:text-lg', tone === 'dark' ? 'text-brand-900' : 'text-white')}
    >
      Campus<span className={tone === 'dark' ? 'text-brand-600' : 'text-accent-300'}>Market</span>
    </span>
  );
  return (
    <Link
      to="/"
      className={cx(
        'inline-flex min-w-0 items-center gap-2 rounded-lg py-1 font-bold tracking-tight sm:gap-2.5',
        className,
      )}
      aria-label={campus ? `CampusMarket ${campus} home` : 'CampusMarket home'}
    >
      <LogoMark />
      {campus ? (
        <span className="flex min-w-0 flex-col gap-0.5">
          {wordmark}{' '}
          <span
            title={campus}
            className={cx(
              'max-w-[7.5rem] truncate text-xs leading-tight font-semibold tracking-normal sm:max-w-[15rem]',
              tone === 'dark' ? 'text-slate-600' : 'text-brand-100',
            )}
          >
            {campus}
          </span>
        </span>
      ) : (
        wordmark
      )}
    </Link>
  );
}
