import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';

/**
 * A modal dialog on the native <dialog> element: showModal() traps focus, Escape closes, the
 * page behind is inert for screen readers; focus returns to what opened it.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      // showModal() focuses the first focusable element (the Close button): a dialog whose one field
      // is marked `data-autofocus` opens on it instead (React's autoFocus fires while the dialog is
      // still closed, so it is lost).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
      return () => opener?.focus();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 bg-white p-0 text-slate-900 shadow-lift backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-lg font-bold text-slate-900">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="-m-1 rounded-lg p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <CloseIcon size={20} />
            </button>
          </div>
          {description && (
            <p id={descId} className="mt-1 text-sm text-slate-600">
              {description}
            </p>
          )}
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
