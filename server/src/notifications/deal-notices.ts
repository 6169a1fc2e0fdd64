import { DEAL_NOTICE, NOTIFICATION_LIMITS, REVIEW_WINDOW_MS, type NotificationType } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { JobExecutor } from '../jobs/index.js';
import { notify } from './service.js';
import type { DomainEventMap } from '../events.js';

/**
 * Notifications for deals and reviews (features.md §D): offers, meet-ups, reminders, confirmed
 * deals, review requests and revealed reviews. Producers call these inside their transaction, so a
 * notification exists only if the change it announces commits. Everything here is work of one
 * campus (the student's request, or the job's): rows are read in that campus only.
 */

export const DEAL_NOTICE_JOBS = {
  meetupReminder: 'notify.meetup-reminder',
  reviewRequest: 'notify.review-request',
} as const;

const MEETUP_REMINDER_LEAD_MS = NOTIFICATION_LIMITS.meetupReminderLeadMinutes * 60_000;
const REVIEW_REQUEST_DELAY_MS = NOTIFICATION_LIMITS.reviewRequestDelayHours * 3_600_000;

/** The card a deal message carries (deals announces it with `deal.messagePosted`). */
type DealNoticeCard = DomainEventMap['deal.messagePosted']['card'];

async function listingName(trx: JobExecutor, listingId: number): Promise<string> {
  const row = await trx
    .selectFrom('listings')
    .select('name')
    .where('campus_id', '=', requireCampusId())
    .where('id', '=', listingId)
    .executeTakeFirst();
  return row?.name ?? 'your listing';
}

/**
 * A chat card or system message of a deal, told to the other student (both when the system acted,
 * senderId 0). `body` is the message as the chat shows it; the title names the listing and the
 * new state, so the centre reads well without the conversation.
 */
export async function announceDealMessage(
  ctx: AppContext,
  trx: JobExecutor,
  type: NotificationType,
  card: DealNoticeCard,
  senderId: number,
  body: string,
): Promise<void> {
  const name = await listingName(trx, card.listingId);
  const state = card.meetup?.status ?? card.offerStatus ?? '';
  const title = DEAL_NOTICE.title(type, state, name);
  const recipients = [card.sellerId, card.buyerId].filter((id) => id !== senderId);
  for (const userId of recipients) {
    await notify(ctx, trx, {
      userId,
      type,
      title,
      body,
      link: `/chat/${card.roomId}`,
      subjectId: card.listingId,
    });
  }
  // A confirmed meet-up gets its reminder: durable, and it re-checks the meet-up when it runs.
  if (type === 'MEETUP_ANSWERED' && card.meetup?.status === 'CONFIRMED') {
    const runAt = Math.max(ctx.clock(), card.meetup.startsAt - MEETUP_REMINDER_LEAD_MS);
    await ctx.jobs.enqueue(
      trx,
      DEAL_NOTICE_JOBS.meetupReminder,
      { meetupId: card.meetup.id },
      { runAt, key: `${DEAL_NOTICE_JOBS.meetupReminder}:${card.meetup.id}` },
    );
  }
}

/** The hand-off code was right: both students hear it, and a review request is scheduled. */
export async function announceDealConfirmed(
  ctx: AppContext,
  trx: JobExecutor,
  deal: { id: number; listingName: string; sellerId: number; buyerId: number; price: number },
): Promise<void> {
  const names = await firstNames(trx, [deal.sellerId, deal.buyerId]);
  for (const [me, other, sold] of [
    [deal.sellerId, deal.buyerId, true],
    [deal.buyerId, deal.sellerId, false],
  ] as const) {
    await notify(ctx, trx, {
      userId: me,
      type: 'DEAL_CONFIRMED',
      title: DEAL_NOTICE.dealTitle(sold, deal.listingName, deal.price),
      body: DEAL_NOTICE.dealBody(names.get(other) ?? 'the other student'),
      link: '/my-deals',
      subjectId: deal.id,
    });
  }
  await ctx.jobs.enqueue(
    trx,
    DEAL_NOTICE_JOBS.reviewRequest,
    { dealId: deal.id },
    {
      runAt: ctx.clock() + REVIEW_REQUEST_DELAY_MS,
      key: `${DEAL_NOTICE_JOBS.reviewRequest}:${deal.id}`,
    },
  );
}

/** Reviews of a deal became visible: each student whose review about them is now public hears it. */
export async function announceReviewsRevealed(
  ctx: AppContext,
  trx: JobExecutor,
  dealId: number,
  subjectIds: readonly number[],
): Promise<void> {
  const deal = await trx
    .selectFrom('deals')
    .select(['listing_name'])
    .where('campus_id', '=', requireCampusId())
    .where('id', '=', dealId)
    .executeTakeFirst();
  if (!deal) return;
  for (const userId of new Set(subjectIds)) {
    await notify(ctx, trx, {
      userId,
      type: 'REVIEW_REVEALED',
      title: DEAL_NOTICE.revealedTitle(deal.listing_name),
      body: DEAL_NOTICE.revealedBody,
      link: `/u/${userId}`,
      subjectId: dealId,
    });
  }
}

async function firstNames(trx: JobExecutor, ids: number[]): Promise<Map<number, string>> {
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'first_name'])
    .where('campus_id', '=', requireCampusId())
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.first_name]));
}

/** Job handlers: each re-reads the state when it runs, so a late or repeated run is harmless. */
export function registerDealNoticeJobs(ctx: AppContext): void {
  const db = ctx.db.kysely;

  ctx.jobs.register<{ meetupId: number }>(DEAL_NOTICE_JOBS.meetupReminder, async ({ meetupId }) => {
    const campus = ctx.campuses.byId(requireCampusId());
    const m = await db
      .selectFrom('meetups')
      .innerJoin('listings', 'listings.id', 'meetups.listing_id')
      .select([
        'meetups.status',
        'meetups.starts_at',
        'meetups.place',
        'meetups.room_id',
        'meetups.listing_id',
        'listings.name',
        'listings.seller_id',
      ])
      .where('meetups.campus_id', '=', campus.id)
      .where('meetups.id', '=', meetupId)
      .executeTakeFirst();
    const startsAt = Number(m?.starts_at ?? 0);
    if (!m || m.status !== 'CONFIRMED' || startsAt <= ctx.clock()) return;
    const room = await db
      .selectFrom('chat_rooms')
      .select(['low_user_id', 'high_user_id'])
      .where('campus_id', '=', campus.id)
      .where('id', '=', m.room_id)
      .executeTakeFirst();
    if (!room) return;
    // The campus's clock: both students are there.
    const when = new Intl.DateTimeFormat('en-US', {
      timeZone: campus.timeZone,
      hour: 'numeric',
      minute: '2-digit',
    }).format(startsAt);
    await db.transaction().execute(async (trx) => {
      for (const userId of [room.low_user_id, room.high_user_id]) {
        await notify(ctx, trx, {
          userId,
          type: 'MEETUP_REMINDER',
          title: DEAL_NOTICE.reminderTitle(m.name),
          body: DEAL_NOTICE.reminderBody(m.place, when, userId !== m.seller_id),
          link: `/chat/${m.room_id}`,
          subjectId: m.listing_id,
          // Once per meet-up time and student, however often this job runs.
          dedupeKey: `${DEAL_NOTICE_JOBS.meetupReminder}:${meetupId}:${startsAt}:${userId}`,
        });
      }
    });
  });

  ctx.jobs.register<{ dealId: number }>(DEAL_NOTICE_JOBS.reviewRequest, async ({ dealId }) => {
    const campusId = requireCampusId();
    const deal = await db
      .selectFrom('deals')
      .selectAll()
      .where('campus_id', '=', campusId)
      .where('id', '=', dealId)
      .executeTakeFirst();
    if (!deal) return;
    const closes = Number(deal.completed_at) + REVIEW_WINDOW_MS;
    if (ctx.clock() >= closes) return;
    const reviewed = await db
      .selectFrom('reviews')
      .select('reviewer_id')
      .where('campus_id', '=', campusId)
      .where('deal_id', '=', dealId)
      .execute();
    const done = new Set(reviewed.map((r) => r.reviewer_id));
    const names = await firstNames(db, [deal.seller_id, deal.buyer_id]);
    const daysLeft = Math.max(1, Math.floor((closes - ctx.clock()) / 86_400_000));
    await db.transaction().execute(async (trx) => {
      for (const [me, other] of [
        [deal.seller_id, deal.buyer_id],
        [deal.buyer_id, deal.seller_id],
      ] as const) {
        if (done.has(me)) continue;
        await notify(ctx, trx, {
          userId: me,
          type: 'REVIEW_REQUEST',
          title: DEAL_NOTICE.reviewTitle(names.get(other) ?? 'the other student'),
          body: DEAL_NOTICE.reviewBody(deal.listing_name, daysLeft),
          link: '/my-deals',
          subjectId: dealId,
          dedupeKey: `${DEAL_NOTICE_JOBS.reviewRequest}:${dealId}:${me}`,
        });
      }
    });
  });
}
