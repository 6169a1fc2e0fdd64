import { NOTIFICATION_LIMITS, parseRoomId } from '@campus/contract';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { deliveryTime, isQuietTime } from './quiet-hours.js';
import type { Presence } from './presence.js';
import type { NotificationService } from './service.js';
import * as store from './store.js';

const CHAT_MAIL_JOB = 'notify.chatMail';
const CHAT_PUSH_JOB = 'notify.chatPush';
const DELAY_MS = NOTIFICATION_LIMITS.chatEmailDelayMinutes * 60_000;
const GAP_MS = NOTIFICATION_LIMITS.chatEmailGapMinutes * 60_000;

interface RoomUser {
  roomId: string;
  userId: number;
}

/**
 * Unread chat: an e-mail when a message is still unread 10 minutes after it arrived, at most one
 * per room per hour (features.md §D), and a push right away to a student with no open session.
 * Both are jobs, so they survive restarts and run once with N processes; the hourly rule is a
 * conditional upsert, so even two runs racing send one e-mail. A room and its two students belong
 * to one campus: the jobs are filed under the campus of the send and read only that campus's rows.
 */
export function registerChatMail(ctx: AppContext, service: NotificationService, presence: Presence): void {
  const db = ctx.db.kysely;

  /**
   * Mail keys this process enqueued, until when they are surely still pending: the job waits
   * 10 minutes, so for the first half of that a repeat enqueue would only bounce off its key —
   * a write per chat message that was a third of the chat path's database time.
   */
  const pendingMail = new Map<string, number>();
  function mailPending(key: string, now: number): boolean {
    const until = pendingMail.get(key);
    if (until !== undefined && until > now) return true;
    if (pendingMail.size >= 50_000) {
      for (const [k, u] of pendingMail) if (u <= now) pendingMail.delete(k);
      if (pendingMail.size >= 50_000) pendingMail.clear();
    }
    pendingMail.set(key, now + DELAY_MS / 2);
    return false;
  }

  // After the message is stored (chat's group commit): a failure here never fails the send.
  ctx.domainEvents.afterCommit('chat.messageSent', async ({ message, recipientId }) => {
    const job: RoomUser = { roomId: message.roomId, userId: recipientId };
    const now = ctx.clock();
    const mailKey = `chatmail:${message.roomId}:${recipientId}`;
    if (!mailPending(mailKey, now)) {
      await ctx.jobs.enqueue(db, CHAT_MAIL_JOB, job, { runAt: now + DELAY_MS, key: mailKey });
    }
    // A push only ever goes to a student with no open session (checked again when it is sent);
    // one who has the app open sees the message live, so no job at all.
    if (await presence.hasOpenSession(recipientId)) return;
    await ctx.jobs.enqueue(db, CHAT_PUSH_JOB, job, {
      runAt: deliveryTime(now, ctx.campuses.byId(requireCampusId()).timeZone),
      key: `chatpush:${message.roomId}:${recipientId}`,
    });
  });

  /** Unread messages from the other party, oldest first. */
  async function unread(campusId: number, roomId: string, userId: number) {
    const read = await db
      .selectFrom('chat_reads')
      .select('last_read_message_id')
      .where('campus_id', '=', campusId)
      .where('room_id', '=', roomId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return db
      .selectFrom('chat_messages')
      .select(['id', 'sender_id', 'content', 'url', 'sent_at'])
      .where('campus_id', '=', campusId)
      .where('room_id', '=', roomId)
      .where('sender_id', '<>', userId)
      .where('id', '>', read?.last_read_message_id ?? 0)
      .orderBy('id')
      .execute();
  }

  async function later(job: RoomUser, runAt: number): Promise<void> {
    await ctx.jobs.enqueue(db, CHAT_MAIL_JOB, job, {
      runAt,
      key: `chatmail:${job.roomId}:${job.userId}:${runAt}`,
    });
  }

  async function summary(campusId: number, job: RoomUser) {
    const pair = parseRoomId(job.roomId);
    if (!pair) return null;
    const messages = await unread(campusId, job.roomId, job.userId);
    const last = messages[messages.length - 1];
    if (!last) return null;
    const peer = await db
      .selectFrom('users')
      .select('first_name')
      .where('campus_id', '=', campusId)
      .where('id', '=', last.sender_id)
      .executeTakeFirst();
    const name = peer?.first_name ?? 'Someone';
    const preview = last.content.trim() ? last.content.trim().slice(0, 140) : 'A photo';
    const count = messages.length;
    return {
      messages,
      title: count === 1 ? `${name} sent you a message` : `${name} sent you ${count} messages`,
      body: `“${preview}${last.content.trim().length > 140 ? '…' : ''}”`,
      link: `/chat/${job.roomId}`,
    };
  }

  ctx.jobs.register<RoomUser>(CHAT_MAIL_JOB, async (job) => {
    const now = ctx.clock();
    const owner = { userId: job.userId, campusId: requireCampusId() };
    const campus = ctx.campuses.byId(owner.campusId);
    if (!(await store.isEnabled(db, owner, 'CHAT_MESSAGE', 'email'))) return;
    const s = await summary(owner.campusId, job);
    if (!s) return;
    const oldest = Number(s.messages[0]!.sent_at);
    if (now < oldest + DELAY_MS) return later(job, oldest + DELAY_MS);
    const mark = await db
      .selectFrom('chat_mail_marks')
      .select('last_sent_at')
      .where('campus_id', '=', owner.campusId)
      .where('room_id', '=', job.roomId)
      .where('user_id', '=', job.userId)
      .executeTakeFirst();
    if (mark && now < Number(mark.last_sent_at) + GAP_MS)
      return later(job, Number(mark.last_sent_at) + GAP_MS);
    // Night at the student's campus.
    if (isQuietTime(now, campus.timeZone)) return later(job, deliveryTime(now, campus.timeZone));
    const user = await store.userContact(db, owner);
    if (!user) return;
    const claimed = await db
      .insertInto('chat_mail_marks')
      .values({ room_id: job.roomId, user_id: job.userId, last_sent_at: now })
      .onConflict((oc) =>
        oc
          .columns(['room_id', 'user_id'])
          .doUpdateSet({ last_sent_at: now })
          .where('chat_mail_marks.last_sent_at', '<=', now - GAP_MS),
      )
      .returning('last_sent_at')
      .executeTakeFirst();
    if (!claimed) return;
    await service.sendEmail(owner, user, 'CHAT_MESSAGE', s.title, s.body, s.link);
  });

  ctx.jobs.register<RoomUser>(CHAT_PUSH_JOB, async (job) => {
    const owner = { userId: job.userId, campusId: requireCampusId() };
    if (!(await store.isEnabled(db, owner, 'CHAT_MESSAGE', 'push'))) return;
    const s = await summary(owner.campusId, job);
    if (!s) return;
    // One notification per room on the device: the tag replaces the previous one.
    await service.sendPushes(owner, {
      title: s.title,
      body: s.body,
      link: s.link,
      tag: `chat-${job.roomId}`,
    });
  });
}
