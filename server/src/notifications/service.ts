import {
  FRESHNESS_MESSAGES,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_LIMITS,
  NOTIFY_MESSAGES,
  NOTIFY_STOMP_PATHS,
  markNotificationsReadBody,
  notificationPageQuery,
  notificationSettingsBody,
  type AppNotification,
  type NotificationKind,
  type NotificationPage,
  type NotificationSettings,
  type NotificationType,
  type PushPayload,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { acrossCampuses, currentScope, requireCampusId } from '../db/campus-scope.js';
import { badRequest, parseOr400 } from '../http/errors.js';
import type { JobExecutor } from '../jobs/index.js';
import { campusBaseUrl } from '../campuses/index.js';
import { enqueueMail } from '../mail/index.js';
import { notificationMail } from './email.js';
import { scheduleOfferMail } from './offer-mail.js';
import type { Presence } from './presence.js';
import {
  checkEndpointTarget,
  parseSubscription,
  sendPush,
  targetPolicy,
  type PushResult,
  type VapidKeys,
} from './push.js';
import { deliveryTime } from './quiet-hours.js';
import * as store from './store.js';
import type { Owner } from './store.js';
import { unsubscribeUrl } from './unsubscribe.js';

export const NOTIFY_JOBS = {
  live: 'notify.live',
  send: 'notify.send',
} as const;

export interface NotifyInput {
  userId: number;
  type: NotificationType;
  title: string;
  body: string;
  /** A path in the web app, e.g. `/single_listing/12`. */
  link: string;
  /** What it is about (a listing id for matches and price drops); lets producers de-duplicate. */
  subjectId?: number | null;
  /**
   * Makes the notice idempotent: at most one notification per key ever (a timed job that runs
   * again, after a crash or a lost lease, tells nobody twice). E.g. `{job key}:{recipient id}`.
   */
  dedupeKey?: string;
}

/**
 * Creates a notification inside the caller's transaction (`executor`): the row, its live delivery
 * to every open session, and its e-mail/push — held until 07:00 campus time when it is night —
 * exist only if the caller's change commits. This is the one entry point for other features.
 *
 * A notice belongs to the recipient's campus and only ever reaches a student of the campus in
 * scope: one for a student of another campus (or none) is dropped, with a warning, so a producer
 * that forgot its campus filter tells nobody across campuses. Work across campuses (an operator's
 * moderation) files the notice under the recipient's own campus.
 */
export async function notify(ctx: AppContext, executor: JobExecutor, input: NotifyInput): Promise<number> {
  const campusId = await recipientCampus(executor, input.userId);
  if (campusId === undefined) {
    ctx.logger.warn(
      { userId: input.userId, type: input.type },
      'notification for a student outside the campus in scope dropped',
    );
    return 0;
  }
  const now = ctx.clock();
  const row = await store.insertNotification(executor, {
    campusId,
    userId: input.userId,
    type: input.type,
    title: input.title,
    body: input.body,
    link: input.link,
    subjectId: input.subjectId ?? null,
    createdAt: now,
    dedupeKey: input.dedupeKey ?? null,
  });
  // Already told (same dedupe key): nothing new to deliver.
  if (!row) return 0;
  await ctx.jobs.enqueue(executor, NOTIFY_JOBS.live, { id: row.id }, { campusId });
  await ctx.jobs.enqueue(
    executor,
    NOTIFY_JOBS.send,
    { id: row.id },
    // Night is the recipient's campus's night.
    { runAt: deliveryTime(now, ctx.campuses.byId(campusId).timeZone), campusId },
  );
  return row.id;
}

/**
 * The campus the notice is filed under: the one in scope if the recipient is its student (else
 * none); across campuses, the recipient's own. No scope at all is a programming error.
 */
async function recipientCampus(executor: JobExecutor, userId: number): Promise<number | undefined> {
  const scope = currentScope();
  if (!scope) throw new Error('notify() with no campus in scope: run it inside inCampus()');
  if ('campusId' in scope) {
    const own = await store.isStudentOf(executor, { userId, campusId: scope.campusId });
    return own ? scope.campusId : undefined;
  }
  const row = await executor
    .selectFrom('users')
    .select('campus_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.campus_id) : undefined;
}

/** The button of each e-mail. */
const ACTION_LABEL: Record<NotificationKind, string> = {
  OFFER_RECEIVED: 'See the offer',
  OFFER_ANSWERED: 'Open the conversation',
  MEETUP_PROPOSED: 'Answer the proposal',
  MEETUP_ANSWERED: 'Open the conversation',
  MEETUP_REMINDER: 'See the meet-up',
  DEAL_CONFIRMED: 'See the deal',
  REVIEW_REQUEST: 'Leave a review',
  REVIEW_REVEALED: 'Read the review',
  SAVED_SEARCH_MATCH: 'See the listing',
  WANTED_MATCH: 'See the listing',
  PRICE_DROP: 'See the listing',
  LISTING_REMOVED: 'See why',
  LISTING_EXPIRING: FRESHNESS_MESSAGES.expiringAction,
  CLAIMS_READY: 'See the claims',
  CLAIM_WON: 'Plan the pickup',
  CLAIM_LOST: 'See free items',
  HOLD_REMINDER: 'Open the conversation',
  CHAT_MESSAGE: 'Reply',
};

export class NotificationService {
  constructor(
    private readonly ctx: AppContext,
    private readonly presence: Presence,
    private readonly vapid: VapidKeys,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  registerJobs(): void {
    this.ctx.jobs.register<{ id: number }>(NOTIFY_JOBS.live, ({ id }) => this.deliverLive(id));
    this.ctx.jobs.register<{ id: number }>(NOTIFY_JOBS.send, ({ id }) => this.deliverOutside(id));
  }

  // ---- centre (each call names its student: a request's principal)

  async list(owner: Owner, query: unknown): Promise<NotificationPage> {
    const q = parseOr400(notificationPageQuery, query);
    const limit = q.limit ?? NOTIFICATION_LIMITS.pageDefault;
    const page = await store.listNotifications(this.db, owner, { before: q.before, limit });
    const last = page.rows[page.rows.length - 1];
    return {
      notifications: page.rows.map(store.toNotification),
      unreadCount: await store.unreadCount(this.db, owner),
      nextBefore: page.more && last ? last.id : null,
    };
  }

  async markRead(owner: Owner, body: unknown): Promise<{ unreadCount: number }> {
    const { upTo } = parseOr400(markNotificationsReadBody, body);
    await store.markReadUpTo(this.db, owner, upTo, this.ctx.clock());
    const unreadCount = await store.unreadCount(this.db, owner);
    // The caller's other tabs and devices update their bell too.
    await this.presence.publish([owner.userId], NOTIFY_STOMP_PATHS.notifications, {
      type: 'read',
      upTo,
      unreadCount,
    });
    return { unreadCount };
  }

  // ---- settings

  async settings(owner: Owner): Promise<NotificationSettings> {
    const kinds = Object.fromEntries(
      NOTIFICATION_KINDS.map((k) => [k, { email: true, push: true }]),
    ) as NotificationSettings['kinds'];
    for (const p of await store.listPrefs(this.db, owner)) {
      const entry = kinds[p.kind as NotificationKind];
      if (entry && (p.channel === 'email' || p.channel === 'push')) entry[p.channel] = p.enabled === 1;
    }
    return { kinds };
  }

  async updateSettings(owner: Owner, body: unknown): Promise<NotificationSettings> {
    const { kinds } = parseOr400(notificationSettingsBody, body);
    const entries = Object.entries(kinds) as Array<[NotificationKind, { email?: boolean; push?: boolean }]>;
    if (entries.length === 0) throw badRequest(NOTIFY_MESSAGES.settingsEmpty);
    await this.db.transaction().execute(async (trx) => {
      for (const [kind, channels] of entries) {
        if (channels.email !== undefined) await store.setPref(trx, owner, kind, 'email', channels.email);
        if (channels.push !== undefined) await store.setPref(trx, owner, kind, 'push', channels.push);
      }
    });
    return this.settings(owner);
  }

  // ---- push subscriptions

  get publicKey(): string {
    return this.vapid.publicKey;
  }

  async subscribe(owner: Owner, body: unknown): Promise<void> {
    const sub = parseSubscription(this.ctx, body);
    await checkEndpointTarget(this.ctx, sub.endpoint);
    // The endpoint is the browser's own unguessable address: whoever posts it holds that browser,
    // so an account of another campus that used this browser before stops getting its pushes
    // (they would show on this student's screen). The one write across campuses here, by endpoint.
    await acrossCampuses(() =>
      this.db
        .deleteFrom('push_subscriptions')
        .where('endpoint', '=', sub.endpoint)
        .where('campus_id', '<>', owner.campusId)
        .execute(),
    );
    await this.db.transaction().execute(async (trx) => {
      // The same browser re-subscribing (or another account on it) takes the endpoint over.
      await trx
        .deleteFrom('push_subscriptions')
        .where('campus_id', '=', owner.campusId)
        .where('endpoint', '=', sub.endpoint)
        .execute();
      const mine = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('campus_id', '=', owner.campusId)
        .where('user_id', '=', owner.userId)
        .orderBy('id')
        .execute();
      // Oldest devices make room: a student never has to clean up to turn push on.
      const excess = mine.length - (NOTIFICATION_LIMITS.pushSubscriptionsMax - 1);
      if (excess > 0)
        await trx
          .deleteFrom('push_subscriptions')
          .where('campus_id', '=', owner.campusId)
          .where(
            'id',
            'in',
            mine.slice(0, excess).map((r) => r.id),
          )
          .execute();
      // Upsert: two tabs posting the same subscription at once both pass the delete above; the
      // second insert then takes the row over instead of failing on the unique endpoint.
      const now = this.ctx.clock();
      await trx
        .insertInto('push_subscriptions')
        .values({ campus_id: owner.campusId, user_id: owner.userId, ...sub, created_at: now })
        .onConflict((oc) =>
          oc
            .column('endpoint')
            .doUpdateSet({ user_id: owner.userId, p256dh: sub.p256dh, auth: sub.auth, created_at: now }),
        )
        .execute();
    });
  }

  async unsubscribe(owner: Owner, endpoint: string): Promise<void> {
    await this.db
      .deleteFrom('push_subscriptions')
      .where('campus_id', '=', owner.campusId)
      .where('user_id', '=', owner.userId)
      .where('endpoint', '=', endpoint)
      .execute();
  }

  // ---- delivery (jobs)

  /** A delivery job runs in the notification's campus: the row is read only there. */
  private async deliverLive(id: number): Promise<void> {
    const row = await store.findNotification(this.db, requireCampusId(), id);
    if (!row) return;
    const owner = { userId: row.user_id, campusId: Number(row.campus_id) };
    const notification: AppNotification = store.toNotification(row);
    const unreadCount = await store.unreadCount(this.db, owner);
    await this.presence.publish([row.user_id], NOTIFY_STOMP_PATHS.notifications, {
      type: 'notification',
      notification,
      unreadCount,
    });
  }

  /**
   * E-mail and push of one notification, each if its switch is on (checked now, not at creation).
   * Once only: the e-mail is queued in the transaction that marks the row delivered, so a re-run
   * of this job finds it marked and sends nothing; push follows the commit (at most once).
   */
  private async deliverOutside(id: number): Promise<void> {
    const campusId = requireCampusId();
    const row = await store.findNotification(this.db, campusId, id);
    if (!row || row.delivered_at !== null) return;
    const owner = { userId: row.user_id, campusId };
    const kind = row.type as NotificationType;
    const user = await store.userContact(this.db, owner);
    if (!user) return;
    const email = await store.isEnabled(this.db, owner, kind, 'email');
    const first = await this.db.transaction().execute(async (trx) => {
      if (!(await store.claimDelivery(trx, campusId, id, this.ctx.clock()))) return false;
      if (email) {
        // A burst of offers in one chat is one e-mail (offer-mail.ts), not one per offer.
        if (kind === 'OFFER_RECEIVED')
          await scheduleOfferMail(this.ctx, { userId: row.user_id, link: row.link }, trx);
        else await this.sendEmail(owner, user, kind, row.title, row.body, row.link, trx);
      }
      return true;
    });
    if (!first) return;
    if (await store.isEnabled(this.db, owner, kind, 'push')) {
      await this.sendPushes(owner, {
        title: row.title,
        body: row.body,
        link: row.link,
        tag: `n${row.id}`,
      });
    }
  }

  /**
   * Queues a notification e-mail in the words of the student's campus: its name in the header and
   * footer, and every link (the action, settings, unsubscribe) to the campus's own site.
   */
  async sendEmail(
    owner: Owner,
    user: { email: string; first_name: string },
    kind: NotificationKind,
    title: string,
    body: string,
    link: string,
    executor: JobExecutor = this.db,
  ): Promise<void> {
    const campus = this.ctx.campuses.byId(owner.campusId);
    const site = campusBaseUrl(this.ctx.config.publicUrl, campus);
    const message = await notificationMail({
      to: user.email,
      firstName: user.first_name,
      campusName: campus.name,
      kind,
      title,
      body,
      actionUrl: `${site}${link}`,
      actionLabel: ACTION_LABEL[kind],
      reason: `“${NOTIFICATION_KIND_LABELS[kind]}”`,
      unsubscribeUrl: unsubscribeUrl(this.ctx, owner, kind),
      settingsUrl: `${site}/settings/notifications`,
    });
    await enqueueMail(this.ctx, executor, message);
  }

  /** Pushes to every device of the student unless a session of theirs is open (they saw it live). */
  async sendPushes(owner: Owner, payload: PushPayload): Promise<void> {
    if (await this.presence.hasOpenSession(owner.userId)) return;
    const subs = await store.pushSubscriptions(this.db, owner);
    const subject = this.ctx.config.vapidSubject ?? vapidSubjectFrom(this.ctx.config.mailFrom);
    const policy = targetPolicy(this.ctx);
    for (const sub of subs) {
      let result: PushResult;
      try {
        result = await sendPush(this.vapid, subject, sub, payload, policy);
      } catch (err) {
        this.ctx.logger.warn({ err, subscriptionId: sub.id }, 'push failed');
        result = 'failed';
      }
      // An endpoint that now points inside (stored before the check, or re-pointed since) goes too.
      if (result === 'refused')
        this.ctx.logger.warn({ subscriptionId: sub.id }, 'push endpoint is internal; subscription deleted');
      if (result === 'gone' || result === 'refused')
        await this.db
          .deleteFrom('push_subscriptions')
          .where('campus_id', '=', owner.campusId)
          .where('id', '=', sub.id)
          .execute();
    }
  }
}

/** The push service's contact for us (RFC 8292 `sub`): the From address unless VAPID_SUBJECT is set. */
export function vapidSubjectFrom(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}
