import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { AlertIcon } from '../../ui/icons';
import type { CardWords, Tone } from './wording';

const TONE_PILL: Record<Tone, string> = {
  open: 'bg-accent-100 text-slate-900',
  good: 'bg-brand-100 text-brand-900',
  ended: 'bg-slate-200 text-slate-800',
};

/**
 * The frame every deal card shares: a kind label, a title, the state in words (role=status, so a
 * screen reader hears the change when a system message updates the card), what happens next, then
 * the viewer's buttons and the server's message when a press failed.
 */
export function CardFrame({
  own,
  kind,
  icon,
  words,
  detail,
  actions,
  error,
  labelId,
  anchorId,
}: {
  /** The card's element id: the pinned next step scrolls to it, and focus lands on it after a step. */
  anchorId: string;
  own: boolean;
  kind: string;
  icon: ReactNode;
  words: CardWords;
  detail?: ReactNode;
  actions?: ReactNode;
  error?: string | null;
  labelId: string;
}) {
  return (
    <li className={cx('flex', own ? 'justify-end pl-6 sm:pl-20' : 'justify-start pr-6 sm:pr-20')}>
      <article
        id={anchorId}
        tabIndex={-1}
        aria-labelledby={labelId}
        className={cx(
          'w-full max-w-sm min-w-0 scroll-my-4 rounded-2xl border bg-white p-4 shadow-card outline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600',
          words.tone === 'ended' ? 'border-slate-200' : 'border-brand-200',
        )}
      >
        <div className="flex items-center justify-between gap-2">
          <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <span aria-hidden="true" className="text-brand-700">
              {icon}
            </span>
            {kind}
          </p>
          <p
            role="status"
            className={cx('rounded-full px-2.5 py-0.5 text-xs font-semibold', TONE_PILL[words.tone])}
          >
            {words.state}
          </p>
        </div>
        <h3
          id={labelId}
          className={cx(
            'mt-2 text-lg leading-snug font-bold',
            words.tone === 'ended' ? 'text-slate-600' : 'text-slate-900',
          )}
        >
          {words.title}
        </h3>
        {detail}
        <p className="mt-1 text-sm text-slate-600">{words.next}</p>
        {actions}
        {error && (
          <p role="alert" className="mt-3 flex items-start gap-1.5 text-sm font-medium text-red-700">
            <AlertIcon size={16} className="mt-0.5 shrink-0" />
            <span>{error}</span>
          </p>
        )}
      </article>
    </li>
  );
}

/** A card button: spins while its own action runs, and waits while any other of the card's runs. */
export function CardAction({
  name,
  busy,
  variant,
  onPress,
  children,
}: {
  name: string;
  busy: string | null;
  variant?: ButtonVariant;
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <Button size="sm" variant={variant} loading={busy === name} disabled={busy !== null} onClick={onPress}>
      {children}
    </Button>
  );
}

/** The element id of a deal card in the thread. */
export const cardAnchor = (kind: 'offer' | 'meetup', id: number) => `deal-${kind}-${id}`;

/**
 * Moves focus to a deal card (after its step, or from the pinned next step), once the thread has
 * drawn it: the answered card keeps its place, so focus stays where the student was looking.
 */
export function focusCard(anchorId: string): void {
  requestAnimationFrame(() => {
    const card = document.getElementById(anchorId);
    if (!card) return;
    card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    card.focus({ preventScroll: true });
  });
}
