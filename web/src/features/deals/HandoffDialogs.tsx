import { useState, type FormEvent } from 'react';
import { DEALS_MESSAGES, HANDOFF_CODE_PATTERN, type Meetup } from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { confirmHandoff } from '../../api/deals';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InfoIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { toast } from '../../ui/toast';
import { useOnline } from '../../ui/useOnline';
import { useHandoffCode } from './useHandoffCode';
import { useDealAction, DEAL_ACTION_FAILED } from './useDealAction';
import { formatMeetupTime } from './wording';
import { useTimeBasis } from '../../ui/timeBasis';

function MeetupLine({ meetup }: { meetup: Meetup | null }) {
  const basis = useTimeBasis();
  if (!meetup || meetup.status !== 'CONFIRMED') {
    return <p className="text-sm text-slate-700">{DEALS_MESSAGES.handoffNoMeetup}</p>;
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-base">
      <dt className="text-slate-600">Where</dt>
      <dd className="font-semibold text-slate-900">{meetup.place}</dd>
      <dt className="text-slate-600">When</dt>
      <dd className="font-semibold text-slate-900">
        <time dateTime={meetup.startsAt}>{formatMeetupTime(meetup.startsAt, basis)}</time>
      </dd>
    </dl>
  );
}

/** The code as the seller reads it: large, high contrast, digit by digit for a screen reader. */
export function HandoffCodeDisplay({ code }: { code: string }) {
  return (
    <p className="rounded-2xl bg-slate-900 py-6 text-center font-mono text-6xl font-bold tracking-[0.35em] text-white tabular-nums sm:text-7xl">
      {/* Read digit by digit, as the seller will type it. */}
      <span className="sr-only">Hand-off code: {code.split('').join(' ')}</span>
      {/* The tracking pads the right side too: the indent keeps the digits centred. */}
      <span aria-hidden="true" data-testid="handoff-code" className="pl-[0.35em]">
        {code}
      </span>
    </p>
  );
}

/** "You are offline" in the hand-off dialog and on the chat screen: a state, not a spinner. */
export function OfflineNote({ children }: { children: string }) {
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950"
    >
      <InfoIcon size={16} className="mt-0.5 shrink-0 text-amber-700" />
      {children}
    </p>
  );
}

/**
 * The reserved buyer's hand-off code (features.md §A): large, high contrast, easy to read out or
 * show across a table, with the spot and time of the confirmed meet-up. Shown from the copy saved
 * on the device when there is no signal (useHandoffCode).
 */
export function HandoffCodeDialog({
  listingId,
  listingName,
  roomId,
  userId,
  meetup,
  open,
  onClose,
}: {
  listingId: number;
  listingName: string;
  roomId: string;
  userId: number;
  meetup: Meetup | null;
  open: boolean;
  onClose: () => void;
}) {
  const online = useOnline();
  const handoff = useHandoffCode(listingId, userId, { roomId, listingName }, open);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Your hand-off code"
      description={DEALS_MESSAGES.handoffCodeHint}
    >
      <div className="space-y-5">
        {handoff.code ? (
          <>
            {!online && <OfflineNote>{DEALS_MESSAGES.handoffSavedOffline}</OfflineNote>}
            <HandoffCodeDisplay code={handoff.code} />
          </>
        ) : handoff.refused ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {serverMessageOf(handoff.error) ?? DEAL_ACTION_FAILED}
          </p>
        ) : !online || handoff.waitingForNetwork ? (
          // Not a spinner: nothing can arrive until the device is back online.
          <OfflineNote>{DEALS_MESSAGES.handoffOffline}</OfflineNote>
        ) : handoff.error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {serverMessageOf(handoff.error) ?? DEAL_ACTION_FAILED}
          </p>
        ) : (
          <div className="flex justify-center py-8">
            <Spinner label="Loading your code…" />
          </div>
        )}
        <MeetupLine meetup={meetup} />
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * "Enter hand-off code" (seller): a wrong code shows the server's message; the fifth locks hand-off
 * (409), and then the way on is to release the reservation, which the dialog offers.
 */
export function HandoffEntryDialog({
  listingId,
  roomId,
  buyerName,
  open,
  onClose,
  onRelease,
  onDone,
}: {
  listingId: number;
  roomId: string;
  buyerName: string;
  open: boolean;
  onClose: () => void;
  onRelease: () => void;
  /** The hand-off was confirmed (else onClose). */
  onDone?: () => void;
}) {
  const [code, setCode] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const action = useDealAction(roomId);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The contract's pattern, not its schema: Zod stays off a listing page's first evaluation.
    const typed = code.trim();
    if (!HANDOFF_CODE_PATTERN.test(typed)) {
      setInputError(DEALS_MESSAGES.handoffCodeInvalid);
      return;
    }
    const done = await action.run('handoff', () => confirmHandoff(listingId, typed));
    if (done) {
      toast.success(`Sold to ${buyerName}. Hand-off confirmed.`);
      (onDone ?? onClose)();
    } else {
      setCode('');
    }
  }

  const error = inputError ?? action.error;
  // The lock is a 409 with the contract's message; after it, typing more codes cannot help.
  // The field is disabled then, so nothing clears the message.
  const isLocked = action.error === DEALS_MESSAGES.handoffLocked;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={DEALS_MESSAGES.enterHandoff}
      description={DEALS_MESSAGES.handoffSellerHint}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <TextField
          label={`${buyerName}'s 4-digit code`}
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          pattern="[0-9]*"
          data-autofocus
          disabled={isLocked}
          value={code}
          error={error}
          className="h-14 text-center font-mono text-3xl tracking-[0.3em] sm:text-3xl"
          onChange={(e) => {
            setCode(e.target.value.replace(/\D/g, '').slice(0, 4));
            setInputError(null);
            action.setError(null);
          }}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {isLocked ? (
            <Button variant="danger" onClick={onRelease}>
              {DEALS_MESSAGES.releaseReservation}
            </Button>
          ) : (
            <Button type="submit" loading={action.busy !== null}>
              Confirm hand-off
            </Button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
