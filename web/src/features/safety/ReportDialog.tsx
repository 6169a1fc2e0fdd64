import { useState, type FormEvent } from 'react';
import {
  REPORT_REASONS,
  REPORT_REASON_LABELS,
  SAFETY_LIMITS,
  SAFETY_MESSAGES,
  type ReportReason,
  type ReportTargetType,
} from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { createReport } from '../../api/safety';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { Dialog } from '../../ui/Dialog';
import { toast } from '../../ui/toast';

const WHAT: Record<ReportTargetType, string> = {
  LISTING: 'this listing',
  USER: 'this student',
  MESSAGE: 'this message',
};

/** "Report" (features.md §C): a short dialog with a reason and optional details. */
export function ReportDialog({
  open,
  onClose,
  targetType,
  targetId,
}: {
  open: boolean;
  onClose: () => void;
  targetType: ReportTargetType;
  targetId: number;
}) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason) {
      setError('Choose a reason');
      return;
    }
    setSending(true);
    try {
      await createReport({ targetType, targetId, reason, details: details.trim() });
      toast.success(SAFETY_MESSAGES.reportCreated);
      setReason(null);
      setDetails('');
      setError(null);
      onClose();
    } catch (err) {
      setError(serverMessageOf(err) ?? 'The report could not be sent. Try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Report ${WHAT[targetType]}`}
      description="Moderators review every report. The other student is not told who reported."
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Reason</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {REPORT_REASONS.map((r) => (
              <label
                key={r}
                className="flex cursor-pointer items-center gap-2 rounded-xl border border-slate-300 px-3 py-2.5 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => {
                    setReason(r);
                    setError(null);
                  }}
                  className="accent-brand-700"
                />
                {REPORT_REASON_LABELS[r]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="space-y-1.5">
          <label htmlFor="report-details" className="block text-sm font-medium text-slate-800">
            Details <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <textarea
            id="report-details"
            value={details}
            maxLength={SAFETY_LIMITS.reportDetailsMax}
            onChange={(e) => setDetails(e.target.value)}
            rows={3}
            className="block w-full rounded-xl border border-slate-300 px-3.5 py-2.5 text-base focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none sm:text-sm"
          />
        </div>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={sending}>
            Send report
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A quiet "Report" button that opens the dialog (quiet, but a full-size tap target). */
export function ReportButton({
  targetType,
  targetId,
  label = 'Report',
  ariaLabel,
  className,
}: {
  targetType: ReportTargetType;
  targetId: number;
  label?: string;
  /** A name that tells several Report buttons on one screen apart. */
  ariaLabel?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={ariaLabel}
        className={cx(
          // Large enough to tap (WCAG 2.5.8): 44 px on phones, 24 px from md up, whatever it looks like.
          'inline-flex min-h-11 min-w-11 items-center justify-center md:min-h-6 md:min-w-6',
          className ??
            'rounded px-1 text-sm font-semibold text-slate-600 underline decoration-slate-400 underline-offset-2 hover:text-red-700',
        )}
      >
        {label}
      </button>
      <ReportDialog open={open} onClose={() => setOpen(false)} targetType={targetType} targetId={targetId} />
    </>
  );
}
