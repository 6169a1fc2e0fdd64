import { useId } from 'react';
import type { Meetup } from '@campus/contract';
import { answerMeetup, downloadMeetupIcs, type MeetupAnswer } from '../../api/deals';
import { PinIcon } from '../../ui/icons';
import { CardAction, CardFrame, cardAnchor, focusCard } from './CardFrame';
import { meetupActions } from './rules';
import { useDealAction } from './useDealAction';
import { formatMeetupTime, meetupWords } from './wording';
import { useTimeBasis } from '../../ui/timeBasis';

/** A meet-up in the chat (features.md §A): where and when, and the viewer's buttons. */
export function MeetupCard({
  meetup,
  myId,
  peerName,
}: {
  meetup: Meetup;
  myId: number | null;
  peerName: string;
}) {
  const basis = useTimeBasis();
  const labelId = useId();
  const { busy, error, run } = useDealAction(meetup.roomId);
  const can = meetupActions(meetup, myId, basis.now);
  const words = meetupWords(meetup, myId, peerName);
  const anchorId = cardAnchor('meetup', meetup.id);
  // After a step the card's buttons change or go: focus stays on the card, now in its new state.
  const answer = (what: MeetupAnswer) =>
    void run(what, () => answerMeetup(meetup.id, what)).then((done) => {
      if (done) focusCard(anchorId);
    });
  const ended = words.tone === 'ended';

  return (
    <CardFrame
      anchorId={anchorId}
      own={meetup.proposerId === myId}
      kind="Meet-up"
      icon={<PinIcon size={16} />}
      words={words}
      labelId={labelId}
      error={error}
      detail={
        <dl className="mt-2 space-y-1 rounded-xl bg-slate-50 px-3 py-2 text-sm">
          <div className="flex gap-2">
            <dt className="w-12 shrink-0 text-slate-600">Where</dt>
            <dd className={ended ? 'text-slate-600 line-through' : 'font-semibold text-slate-900'}>
              {meetup.place}
            </dd>
          </div>
          <div className="flex gap-2">
            <dt className="w-12 shrink-0 text-slate-600">When</dt>
            <dd className={ended ? 'text-slate-600 line-through' : 'font-semibold text-slate-900'}>
              <time dateTime={meetup.startsAt}>{formatMeetupTime(meetup.startsAt, basis)}</time>
            </dd>
          </div>
        </dl>
      }
      actions={
        <>
          {(can.accept || can.decline) && (
            <div className="mt-3 flex flex-wrap gap-2">
              {can.accept && (
                <CardAction name="accept" busy={busy} onPress={() => answer('accept')}>
                  Accept
                </CardAction>
              )}
              {can.decline && (
                <CardAction
                  name="decline"
                  busy={busy}
                  variant="danger-outline"
                  onPress={() => answer('decline')}
                >
                  Decline
                </CardAction>
              )}
            </div>
          )}
          {/* Utilities on their own row, under the answer: calendar, no-show, cancel. */}
          {(can.calendar || can.noShow || can.cancel) && (
            <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
              {can.calendar && (
                <CardAction
                  name="calendar"
                  busy={busy}
                  variant="secondary"
                  onPress={() => void run('calendar', () => downloadMeetupIcs(meetup.id))}
                >
                  Add to calendar
                </CardAction>
              )}
              {can.noShow && (
                <CardAction name="no-show" busy={busy} variant="secondary" onPress={() => answer('no-show')}>
                  They didn&apos;t show up
                </CardAction>
              )}
              {can.cancel && (
                <CardAction name="cancel" busy={busy} variant="ghost" onPress={() => answer('cancel')}>
                  Cancel meet-up
                </CardAction>
              )}
            </div>
          )}
        </>
      }
    />
  );
}
