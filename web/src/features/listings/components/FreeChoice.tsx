import { useId } from 'react';
import { CLAIMS_LIMITS } from '@campus/contract';
import { SelectField } from '../../../ui/forms';

/** Window lengths offered on the form (the API takes any whole number of hours from 1 to 72). */
const WINDOW_HOURS = [1, 3, 6, 12, 24, 48, 72].filter(
  (h) => h >= CLAIMS_LIMITS.claimWindowHoursMin && h <= CLAIMS_LIMITS.claimWindowHoursMax,
);
const label = (h: number) =>
  h < 24 ? `${h} ${h === 1 ? 'hour' : 'hours'}` : `${h / 24} ${h === 24 ? 'day' : 'days'}`;

/**
 * "Give it away for free" (features.md §H): no price, and claims collect for a while after posting
 * so everyone nearby has the same chance; then the giver chooses or draws.
 */
export function FreeChoice({
  free,
  hours,
  onFree,
  onHours,
}: {
  free: boolean;
  hours: string;
  onFree: (free: boolean) => void;
  onHours: (hours: string) => void;
}) {
  const hintId = useId();
  const windowId = useId();
  return (
    <div className="rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4">
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          name="free"
          checked={free}
          onChange={(e) => onFree(e.target.checked)}
          aria-describedby={hintId}
          className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer rounded accent-emerald-700"
        />
        <span>
          <span className="block font-semibold text-slate-900">Give it away for free</span>
          <span id={hintId} className="mt-0.5 block text-sm text-slate-700">
            Students claim it instead of making offers. When claims close you choose someone or draw.
          </span>
        </span>
      </label>
      {free && (
        <div className="mt-4 sm:max-w-xs">
          <SelectField
            id={windowId}
            label="Claims stay open for"
            name="claimWindowHours"
            value={hours}
            onChange={onHours}
            placeholder={{ label: 'Choose how long', disabled: true }}
            options={WINDOW_HOURS.map((h) => ({ value: String(h), label: label(h) }))}
          />
        </div>
      )}
    </div>
  );
}
