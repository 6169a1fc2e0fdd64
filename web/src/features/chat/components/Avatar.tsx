import { cx } from '../../../ui/cx';

const TONES = [
  'bg-brand-100 text-brand-800',
  'bg-amber-100 text-amber-900',
  'bg-sky-100 text-sky-900',
  'bg-rose-100 text-rose-900',
  'bg-violet-100 text-violet-900',
  'bg-lime-100 text-lime-900',
] as const;

/** Initials in a coloured circle (decorative: the name is always written next to it). */
export function Avatar({
  id,
  firstName,
  lastName,
  size = 'md',
  className,
}: {
  id: number;
  firstName: string;
  lastName: string;
  size?: 'sm' | 'md';
  className?: string;
}) {
  const initials = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
  return (
    <span
      aria-hidden="true"
      className={cx(
        'inline-flex shrink-0 items-center justify-center rounded-full font-bold',
        size === 'sm' ? 'h-9 w-9 text-sm' : 'h-11 w-11 text-base',
        TONES[Math.abs(id) % TONES.length],
        className,
      )}
    >
      {initials}
    </span>
  );
}
