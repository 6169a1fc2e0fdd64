import { useEffect, useId, useRef } from 'react';
import { Button } from './Button';
import { cx } from './cx';

export interface InlineConfirmProps {
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  className?: string;
}

/**
 * A confirmation shown in place of the control that asked for it: it takes focus
 * on Cancel (the safe choice comes first), Escape cancels, and nothing happens on a timer, so a
 * keyboard or screen-reader user has all the time they need (WCAG 2.2.1, 2.4.3). The caller puts
 * focus back where it belongs once it closes.
 */
export function InlineConfirm({
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  busy = false,
  className,
}: InlineConfirmProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={messageId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
      className={cx('w-full rounded-xl border border-red-200 bg-red-50 p-3', className)}
    >
      <p id={messageId} className="text-sm font-semibold text-red-900">
        {message}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button ref={cancelRef} size="sm" variant="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button size="sm" variant="danger" onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}
