import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MOVE_OUT_LIMITS, MOVE_OUT_MESSAGES, formatDay, type MoveOutPlan } from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { listingKeys } from '../../api/listings';
import { clearMoveOutPlan, getMoveOutPlan, moveOutKey, saveMoveOutPlan } from '../../api/movingOut';
import { queryClient } from '../../api/queryClient';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextField } from '../../ui/TextField';
import { toast } from '../../ui/toast';
import { localDay } from './days';

const CHECKBOX = 'mt-0.5 h-5 w-5 shrink-0 rounded border-slate-400 accent-brand-700';

/**
 * "Moving out?" (features.md §H), on My Listings: the day the student leaves, automatic price steps
 * with a floor, and whether what is left turns free or leaves the market on the day. The server
 * checks every rule; the form only mirrors the date range.
 */
export function MoveOutForm() {
  const plan = useQuery({ queryKey: moveOutKey, queryFn: ({ signal }) => getMoveOutPlan(signal) });
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState('');
  const [autoDrop, setAutoDrop] = useState(true);
  const [floor, setFloor] = useState(String(MOVE_OUT_LIMITS.floorPercentDefault));
  const [thenFree, setThenFree] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();

  useEffect(() => {
    const p = plan.data;
    if (!p) return;
    setDate(p.date);
    setAutoDrop(p.autoDrop);
    setFloor(String(p.floorPercent));
    setThenFree(p.thenFree);
  }, [plan.data]);

  const refresh = (next: MoveOutPlan | null) => {
    queryClient.setQueryData(moveOutKey, next);
    void queryClient.invalidateQueries({ queryKey: listingKeys.all });
  };
  const save = useMutation({
    mutationFn: () => saveMoveOutPlan({ date, autoDrop, floorPercent: Number(floor), thenFree }),
    onSuccess: (saved) => {
      refresh(saved);
      setOpen(false);
      toast.success(MOVE_OUT_MESSAGES.saved);
    },
    onError: (e) => setError(serverMessageOf(e) ?? 'Your plan could not be saved. Try again.'),
  });
  const clear = useMutation({
    mutationFn: clearMoveOutPlan,
    onSuccess: () => {
      refresh(null);
      setDate('');
      toast.success(MOVE_OUT_MESSAGES.cleared);
    },
    onError: (e) => setError(serverMessageOf(e) ?? 'Your plan could not be cleared. Try again.'),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!date) {
      setError(MOVE_OUT_MESSAGES.dateRequired);
      return;
    }
    setError(null);
    save.mutate();
  }

  const current = plan.data;
  return (
    <Card
      as="section"
      padding="lg"
      aria-labelledby={headingId}
      className="mb-6 border-orange-200 bg-orange-50/60"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold text-slate-900">
            {MOVE_OUT_MESSAGES.formTitle}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {current
              ? `You move out on ${formatDay(current.date)}. ${current.autoDrop ? `Prices drop automatically, never below ${current.floorPercent} %.` : 'Prices stay as you set them.'} What is left ${current.thenFree ? 'becomes free' : 'leaves the market'} on the day.`
              : MOVE_OUT_MESSAGES.formHint}
          </p>
        </div>
        {!open && (
          <Button size="sm" variant={current ? 'secondary' : 'primary'} onClick={() => setOpen(true)}>
            {current ? 'Change plan' : 'Set a move-out date'}
          </Button>
        )}
      </div>
      {open && (
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <TextField
            label="Move-out date"
            type="date"
            min={localDay(1)}
            max={localDay(MOVE_OUT_LIMITS.maxDaysAhead)}
            value={date}
            error={error}
            onChange={(e) => {
              setDate(e.target.value);
              setError(null);
            }}
          />
          <label className="flex items-start gap-3 text-sm font-medium text-slate-900">
            <input
              type="checkbox"
              className={CHECKBOX}
              checked={autoDrop}
              onChange={(e) => setAutoDrop(e.target.checked)}
            />
            <span>{MOVE_OUT_MESSAGES.autoDropLabel}</span>
          </label>
          {autoDrop && (
            <TextField
              label={MOVE_OUT_MESSAGES.floorLabel}
              type="number"
              inputMode="numeric"
              min={MOVE_OUT_LIMITS.floorPercentMin}
              max={MOVE_OUT_LIMITS.floorPercentMax}
              value={floor}
              onChange={(e) => setFloor(e.target.value)}
              containerClassName="max-w-xs"
            />
          )}
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold text-slate-900">
              On the day, what is still for sale…
            </legend>
            <label className="flex items-start gap-3 text-sm text-slate-900">
              <input
                type="radio"
                name="then"
                className={CHECKBOX}
                checked={thenFree}
                onChange={() => setThenFree(true)}
              />
              <span>{MOVE_OUT_MESSAGES.thenFreeLabel}</span>
            </label>
            <label className="flex items-start gap-3 text-sm text-slate-900">
              <input
                type="radio"
                name="then"
                className={CHECKBOX}
                checked={!thenFree}
                onChange={() => setThenFree(false)}
              />
              <span>{MOVE_OUT_MESSAGES.thenUnlistLabel}</span>
            </label>
          </fieldset>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            {current && (
              <Button variant="danger-outline" loading={clear.isPending} onClick={() => clear.mutate()}>
                Clear plan
              </Button>
            )}
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save plan
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
