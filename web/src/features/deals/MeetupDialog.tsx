import { useId, useState, type FormEvent } from 'react';
import { DEALS_DURATIONS_MS, DEALS_LIMITS, DEALS_MESSAGES, type MeetupBody } from '@campus/contract';
import { useCampusInfo } from '../../api/campus';
import { proposeMeetup } from '../../api/deals';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { Dialog } from '../../ui/Dialog';
import { AlertIcon } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { checkMeetupTime, defaultMeetupTime, toLocalInputValue } from './rules';
import { useDealAction } from './useDealAction';

const ELSEWHERE = '__place';

/** "Propose a meet-up": one of the campus spots or a typed place, and a time 15 min–30 days ahead. */
export function MeetupDialog({
  listingId,
  roomId,
  open,
  onClose,
  onDone,
}: {
  listingId: number;
  roomId: string;
  open: boolean;
  onClose: () => void;
  /** The meet-up was proposed (else onClose). */
  onDone?: () => void;
}) {
  const campus = useCampusInfo();
  const spots = campus.data?.meetupSpots ?? [];
  const [choice, setChoice] = useState<string | null>(null);
  const [place, setPlace] = useState('');
  const [when, setWhen] = useState(() => toLocalInputValue(defaultMeetupTime()));
  const [errors, setErrors] = useState<{ where?: string; when?: string }>({});
  const action = useDealAction(roomId);
  const whereId = useId();
  const now = Date.now();
  // The first spot is chosen until the student picks another: most meet-ups use a campus spot.
  const selected = choice ?? spots[0]?.id ?? ELSEWHERE;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const time = checkMeetupTime(when);
    const typed = place.trim();
    const next: typeof errors = {};
    if ('error' in time) next.when = time.error;
    if (selected === ELSEWHERE && typed === '') next.where = DEALS_MESSAGES.meetupWhereRequired;
    if (typed.length > DEALS_LIMITS.meetupPlaceMax) next.where = DEALS_MESSAGES.meetupPlaceTooLong;
    setErrors(next);
    if (next.when || next.where || 'error' in time) return;
    const body: MeetupBody = {
      listingId,
      roomId,
      startsAt: time.startsAt,
      ...(selected === ELSEWHERE ? { place: typed } : { spotId: selected }),
    };
    const made = await action.run('propose', () => proposeMeetup(body));
    if (made) (onDone ?? onClose)();
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={DEALS_MESSAGES.proposeMeetup}
      description="Pick a busy, well-lit public place on campus."
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
        <fieldset aria-describedby={errors.where ? `${whereId}-error` : undefined}>
          <legend className="text-sm font-medium text-slate-800">Where</legend>
          <div className="mt-2 space-y-2">
            {spots.map((spot) => (
              <label
                key={spot.id}
                className={cx(
                  'flex cursor-pointer gap-3 rounded-xl border p-3',
                  selected === spot.id
                    ? 'border-brand-600 bg-brand-50'
                    : 'border-slate-300 hover:border-slate-400',
                )}
              >
                <input
                  type="radio"
                  name="meetup-spot"
                  value={spot.id}
                  checked={selected === spot.id}
                  // The dialog opens on the chosen spot: the time is already a sensible default.
                  data-autofocus={selected === spot.id ? true : undefined}
                  onChange={() => setChoice(spot.id)}
                  className="mt-1 h-4 w-4 accent-brand-700"
                />
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-slate-900">{spot.name}</span>
                  <span className="block text-sm text-slate-600">{spot.description}</span>
                </span>
              </label>
            ))}
            <label
              className={cx(
                'flex cursor-pointer gap-3 rounded-xl border p-3',
                selected === ELSEWHERE
                  ? 'border-brand-600 bg-brand-50'
                  : 'border-slate-300 hover:border-slate-400',
              )}
            >
              <input
                type="radio"
                name="meetup-spot"
                value={ELSEWHERE}
                checked={selected === ELSEWHERE}
                onChange={() => setChoice(ELSEWHERE)}
                className="mt-1 h-4 w-4 accent-brand-700"
              />
              <span className="text-sm font-semibold text-slate-900">Somewhere else</span>
            </label>
            {selected === ELSEWHERE && (
              <TextField
                label="Place"
                value={place}
                maxLength={DEALS_LIMITS.meetupPlaceMax}
                placeholder="e.g. Engineering building, main hall"
                onChange={(e) => setPlace(e.target.value)}
              />
            )}
          </div>
          {errors.where && (
            <p
              id={`${whereId}-error`}
              className="mt-2 flex items-start gap-1.5 text-sm font-medium text-red-700"
            >
              <AlertIcon size={16} className="mt-0.5 shrink-0" />
              {errors.where}
            </p>
          )}
        </fieldset>
        <TextField
          label="When"
          type="datetime-local"
          value={when}
          min={toLocalInputValue(new Date(now + DEALS_DURATIONS_MS.meetupMinLead))}
          max={toLocalInputValue(new Date(now + DEALS_DURATIONS_MS.meetupMaxAhead))}
          error={errors.when ?? null}
          hint="At least 15 minutes from now, at most 30 days ahead."
          onChange={(e) => setWhen(e.target.value)}
        />
        {action.error && (
          <p role="alert" className="flex items-start gap-1.5 text-sm font-medium text-red-700">
            <AlertIcon size={16} className="mt-0.5 shrink-0" />
            {action.error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={action.busy !== null}>
            Propose meet-up
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
