import { DEAL_NOTICE, NOTIFICATION_LIMITS } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { JobExecutor } from '../jobs/index.js';
import { deliveryTime, isQuietTime } from './quiet-hours.js';
import type { NotificationService } from './service.js';
import * as store from './store.js';

export const OFFER_MAIL_JOB = 'notify.offerMail';
const WINDOW_MS = NOTIFICATION_LIMITS.offerEmailWindowMinutes * 60_000;
const GAP_MS = NOTIFICATION_LIMITS.offerEmailGapMinutes * 60_000;

interface OfferMail {
  userId: number;
  /** The chat, /chat/{roomId}: offers are coalesced per chat. */
  link: string;
}

/**
 * OFFER_RECEIVED e-mails are coalesced per chat as unread-chat e-mail is: an offer's e-mail joins
 * the job that runs at the end of its WINDOW_MS slot (one job per slot and chat, by key), which
 * e-mails every offer notification of the chat not covered yet, at most once per GAP_MS. So a burst
 * of offers is one e-mail. Slots, not "one pending job per chat": an offer arriving while that job
 * runs still gets the next slot's job, and offer_mail_marks makes sure nothing is e-mailed twice.
 */
export async function scheduleOfferMail(
  ctx: AppContext,
  mail: OfferMail,
  executor: JobExecutor = ctx.db.kysely,
): Promise<void> {
  const runAt = (Math.floor(ctx.clock() / WINDOW_MS) + 1) * WINDOW_MS;
  await enqueueAt(ctx, mail, runAt, executor);
}

function enqueueAt(
  ctx: AppContext,
  mail: OfferMail,
  runAt: number,
  executor: JobExecutor = ctx.db.kysely,
): Promise<void> {
  return ctx.jobs.enqueue(executor, OFFER_MAIL_JOB, mail, {
    runAt,
    key: `offermail:${mail.userId}:${mail.link}:${runAt}`,
  });
}

export function registerOfferMail(ctx: AppContext, service: NotificationService): void {
  const db = ctx.db.kysely;
  ctx.jobs.register<OfferMail>(OFFER_MAIL_JOB, async (job) => {
    const now = ctx.clock();
    // The job runs in the campus of the student it e-mails; it reads only that campus's rows.
    const owner = { userId: job.userId, campusId: requireCampusId() };
    const campus = ctx.campuses.byId(owner.campusId);
    const mark = await db
      .selectFrom('offer_mail_marks')
      .select(['last_notification_id', 'last_sent_at'])
      .where('campus_id', '=', owner.campusId)
      .where('user_id', '=', job.userId)
      .where('link', '=', job.link)
      .executeTakeFirst();
    const after = mark?.last_notification_id ?? 0;
    const offers = await db
      .selectFrom('notifications')
      .select(['id', 'title', 'body', 'read_at'])
      .where('campus_id', '=', owner.campusId)
      .where('user_id', '=', job.userId)
      .where('type', '=', 'OFFER_RECEIVED')
      .where('link', '=', job.link)
      .where('id', '>', after)
      .orderBy('id')
      .execute();
    // Offers already read in the app need no e-mail.
    const unread = offers.filter((n) => n.read_at === null);
    const latest = unread[unread.length - 1];
    if (!latest) return;
    if (mark && now < Number(mark.last_sent_at) + GAP_MS) {
      return enqueueAt(ctx, job, Number(mark.last_sent_at) + GAP_MS);
    }
    if (isQuietTime(now, campus.timeZone)) {
      return enqueueAt(ctx, job, deliveryTime(now, campus.timeZone));
    }
    if (!(await store.isEnabled(db, owner, 'OFFER_RECEIVED', 'email'))) return;
    const user = await store.userContact(db, owner);
    if (!user) return;
    const lastId = offers[offers.length - 1]!.id;
    // Conditional claim: of two runs racing (two processes), one moves the mark and sends.
    const claimed = await db
      .insertInto('offer_mail_marks')
      .values({ user_id: job.userId, link: job.link, last_notification_id: lastId, last_sent_at: now })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'link'])
          .doUpdateSet({ last_notification_id: lastId, last_sent_at: now })
          .where('offer_mail_marks.last_notification_id', '=', after),
      )
      .returning('last_notification_id')
      .executeTakeFirst();
    if (!claimed) return;
    await service.sendEmail(
      owner,
      user,
      'OFFER_RECEIVED',
      latest.title,
      DEAL_NOTICE.offersBody(latest.body, unread.length),
      job.link,
    );
  });
}
