import {
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
import { badRequest, parseOr400 } from '../http/errors.js';
import type { JobExecutor } from '../jobs/index.js';
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
 */
export async function notify(ctx: AppContext, executor: JobExecutor, input: NotifyInput): Promise<number> {
  const now = ctx.clock();
  const row = await store.insertNotification(executor, {
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
  await ctx.jobs.enqueue(executor, NOTIFY_JOBS.live, { id: row.id });
  await ctx.jobs.enqueue(
    executor,
    NOTIFY_JOBS.send,
    { id: row.id },
    { runAt: deliveryTime(now, ctx.campuses.current().timeZone) },
  );
  return row.id;
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

  // ---- centre

  async list(userId: number, query: unknown): Promise<NotificationPage> {
    const q = parseOr400(notificationPageQuery, query);
    const limit = q.limit ?? NOTIFICATION_LIMITS.pageDefault;
    const page = await store.listNotifications(this.db, userId, { before: q.before, limit });
    const last = page.rows[page.rows.length - 1];
    return {
      notifications: page.rows.map(store.toNotification),
      unreadCount: await store.unreadCount(this.db, userId),
      nextBefore: page.more && last ? last.id : null,
    };
  }

  async markRead(userId: number, body: unknown): Promise<{ unreadCount: number }> {
    const { upTo } = parseOr400(markNotificationsReadBody, body);
    await store.markReadUpTo(this.db, userId, upTo, this.ctx.clock());
    const unreadCount = await store.unreadCount(this.db, userId);
    // The caller's other tabs and devices update their bell too.
    await this.presence.publish([userId], NOTIFY_STOMP_PATHS.notifications, {
      type: 'read',
      upTo,
      unreadCount,
    });
    return { unreadCount };
  }

  // ---- settings

  async settings(userId: number): Promise<NotificationSettings> {
    const kinds = Object.fromEntries(
      NOTIFICATION_KINDS.map((k) => [k, { email: true, push: true }]),
    ) as NotificationSettings['kinds'];
    for (const p of await store.listPrefs(this.db, userId)) {
      const entry = kinds[p.kind as NotificationKind];
      if (entry && (p.channel === 'email' || p.channel === 'push')) entry[p.channel] = p.enabled === 1;
    }
    return { kinds };
  }

  async updateSettings(userId: number, body: unknown): Promise<NotificationSettings> {
    const { kinds } = parseOr400(notificationSettingsBody, body);
    const entries = Object.entries(kinds) as Array<[NotificationKind, { email?: boolean; push?: boolean }]>;
    if (entries.length === 0) throw badRequest(NOTIFY_MESSAGES.settingsEmpty);
    await this.db.transaction().execute(async (trx) => {
      for (const [kind, channels] of entries) {
        if (channels.email !== undefined) await store.setPref(trx, userId, kind, 'email', channels.email);
        if (channels.push !== undefined) await store.setPref(trx, userId, kind, 'push', channels.push);
      }
    });
    return this.settings(userId);
  }

  // ---- push subscriptions

  get publicKey(): string {
    return this.vapid.publicKey;
  }

  async subscribe(userId: number, body: unknown): Promise<void> {
    const sub = parseSubscription(this.ctx, body);
    await checkEndpointTarget(this.ctx, sub.endpoint);
    await this.db.transaction().execute(async (trx) => {
      // The same browser re-subscribing (or another account on it) takes the endpoint over.
      await trx.deleteFrom('push_subscriptions').where('endpoint', '=', sub.endpoint).execute();
      const mine = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      // Oldest devices make room: a student never has to clean up to turn push on.
      const excess = mine.length - (NOTIFICATION_LIMITS.pushSubscriptionsMax - 1);
      if (excess > 0)
        await trx
          .deleteFrom('push_subscriptions')
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
        .values({ user_id: userId, ...sub, created_at: now })
        .onConflict((oc) =>
          oc
            .column('endpoint')
            .doUpdateSet({ user_id: userId, p256dh: sub.p256dh, auth: sub.auth, created_at: now }),
        )
        .execute();
    });
  }

  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    await this.db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('endpoint', '=', endpoint)
      .execute();
  }

  // ---- delivery (jobs)

  private async deliverLive(id: number): Promise<void> {
    const row = await store.findNotification(this.db, id);
    if (!row) return;
    const notification: AppNotification = store.toNotification(row);
    const unreadCount = await store.unreadCount(this.db, row.user_id);
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
    const row = await store.findNotification(this.db, id);
    if (!row || row.delivered_at !== null) return;
    const kind = row.type as NotificationType;
    const user = await store.userContact(this.db, row.user_id);
    if (!user) return;
    const email = await store.isEnabled(this.db, row.user_id, kind, 'email');
    const first = await this.db.transaction().execute(async (trx) => {
      if (!(await store.claimDelivery(trx, id, this.ctx.clock()))) return false;
      if (email) {
        // A burst of offers in one chat is one e-mail (offer-mail.ts), not one per offer.
        if (kind === 'OFFER_RECEIVED')
          await scheduleOfferMail(this.ctx, { userId: row.user_id, link: row.link }, trx);
        else await this.sendEmail(row.user_id, user, kind, row.title, row.body, row.link, trx);
      }
      return true;
    });
    if (!first) return;
    if (await store.isEnabled(this.db, row.user_id, kind, 'push')) {
      await this.sendPushes(row.user_id, {
        title: row.title,
        body: row.body,
        link: row.link,
        tag: `n${row.id}`,
      });
    }
  }

  async sendEmail(
    userId: number,
    user: { email: string; first_name: string },
    kind: NotificationKind,
    title: string,
    body: string,
    link: string,
    executor: JobExecutor = this.db,
  ): Promise<void> {
    const publicUrl = this.ctx.config.publicUrl;
    const message = await notificationMail({
      to: user.email,
      firstName: user.first_name,
      campusName: this.ctx.campuses.current().name,
      kind,
      title,
      body,
      actionUrl: `${publicUrl}${link}`,
      actionLabel: ACTION_LABEL[kind],
      reason: `“${NOTIFICATION_KIND_LABELS[kind]}”`,
      unsubscribeUrl: unsubscribeUrl(this.ctx, userId, kind),
      settingsUrl: `${publicUrl}/settings/notifications`,
    });
    await enqueueMail(this.ctx, executor, message);
  }

  /** Pushes to every device of the student unless a session of theirs is open (they saw it live). */
  async sendPushes(userId: number, payload: PushPayload): Promise<void> {
    if (await this.presence.hasOpenSession(userId)) return;
    const subs = await this.db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'p256dh', 'auth'])
      .where('user_id', '=', userId)
      .execute();
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
        await this.db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
    }
  }
}

/** The push service's contact for us (RFC 8292 `sub`): the From address unless VAPID_SUBJECT is set. */
export function vapidSubjectFrom(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}
