import { SAFETY_MESSAGES, SCAM_FLAG_LABELS, type ScamFlag } from '@campus/contract';
import { AlertIcon } from '../../ui/icons';

/** The warning card under a message the server flagged (shown to the recipient only). */
export function ScamWarning({ flags }: { flags: readonly string[] }) {
  const reasons = flags.map((f) => SCAM_FLAG_LABELS[f as ScamFlag]).filter(Boolean);
  return (
    <div
      role="note"
      aria-label="Safety warning"
      className="mt-1 flex max-w-sm gap-2.5 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950"
    >
      <AlertIcon size={18} className="mt-0.5 shrink-0 text-amber-700" />
      <div>
        <p className="font-semibold">{SAFETY_MESSAGES.scamWarning}</p>
        {reasons.length > 0 && <p className="mt-0.5 text-amber-900">This message: {reasons.join('; ')}.</p>}
      </div>
    </div>
  );
}
