import type { AppNotification, NotificationChannel, NotificationType } from '@campus/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, NotificationsTable } from '../db/schema.js';

type Executor = Kysely<Database>;
export type NotificationRow = Selectable<NotificationsTable>;

/**
 * A student's rows: every read and write here names the student and their campus, so a row of
 * another campus answers like no row at all on both databases (SQLite has no row security).
 */
export interface Owner {
  userId: number;
  campusId: number;
}

export interface NewNotification {
  campusId: number;
  userId: number;
  type: NotificationType;
  title: string;
  body: string;
  link: string;
  subjectId: number | null;
  createdAt: number;
  /** Unique: a second insert with the same key inserts nothing (a job that ran again). */
  dedupeKey?: string | null;
}

/**
 * The new row, or undefined when a row with the same dedupe key
 * exists already.
 */
export async function insertNotification(
  db: Executor,
  n: NewNotification,
): Promise<NotificationRow | undefined> {
  return db
    .insertInto('notifications')
    .values({
      campus_id: n.campusId,
      user_id: n.userId,
      type: n.type,
      title: n.title.slice(0, 200),
      body: n.body.slice(0, 500),
      link: n.link.slice(0, 300),
      subject_id: n.subjectId,
      created_at: n.createdAt,
      read_at: null,
      dedupe_key: n.dedupeKey ?? null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Whether the user is a student of this campus (a notice is only ever for one of its own). */
export async function isStudentOf(db: Executor, owner: Owner): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', owner.userId)
    .where('campus_id', '=', owner.campusId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks the notification's e-mail and push as sent, once: true for the first caller only, so a
 * delivery job that runs again (a crash after it queued the e-mail) sends nothing twice.
 */
export async function claimDelivery(
  db: Executor,
  campusId: number,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ delivered_at: now })
    .where('campus_id', '=', campusId)
    .where('id', '=', id)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function toNotification(row: NotificationRow): AppNotification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    readAt: row.read_at === null ? null : new Date(Number(row.read_at)).toISOString(),
    title: row.title,
    body: row.body,
    link: row.link,
  };
}

export async function findNotification(
  db: Executor,
  campusId: number,
  id: number,
): Promise<NotificationRow | undefined> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('campus_id', '=', campusId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Newest first; `before` pages to older rows. One extra row tells whether there is a next page. */
export async function listNotifications(
  db: Executor,
  owner: Owner,
  page: { before?: number; limit: number },
): Promise<{ rows: NotificationRow[]; more: boolean }> {
  let q = db
    .selectFrom('notifications')
    .selectAll()
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId);
  if (page.before !== undefined) q = q.where('id', '<', page.before);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
}

export async function unreadCount(db: Executor, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The read marker: everything up to `upTo` is read (earlier reads keep their time). */
export async function markReadUpTo(db: Executor, owner: Owner, upTo: number, now: number): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId)
    .where('id', '<=', upTo)
    .where('read_at', 'is', null)
    .execute();
}

/** The stored switches (only ones that differ from "on" matter, but both are kept). */
export async function listPrefs(
  db: Executor,
  owner: Owner,
): Promise<Array<{ kind: string; channel: string; enabled: number }>> {
  return db
    .selectFrom('notification_prefs')
    .select(['kind', 'channel', 'enabled'])
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId)
    .execute();
}

export async function isEnabled(
  db: Executor,
  owner: Owner,
  kind: string,
  channel: NotificationChannel,
): Promise<boolean> {
  const row = await db
    .selectFrom('notification_prefs')
    .select('enabled')
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId)
    .where('kind', '=', kind)
    .where('channel', '=', channel)
    .executeTakeFirst();
  return row === undefined || row.enabled === 1;
}

export async function setPref(
  db: Executor,
  owner: Owner,
  kind: string,
  channel: NotificationChannel,
  enabled: boolean,
): Promise<void> {
  await db
    .insertInto('notification_prefs')
    .values({ campus_id: owner.campusId, user_id: owner.userId, kind, channel, enabled: enabled ? 1 : 0 })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'channel']).doUpdateSet({ enabled: enabled ? 1 : 0 }))
    .execute();
}

export async function userContact(
  db: Executor,
  owner: Owner,
): Promise<{ email: string; first_name: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['email', 'first_name'])
    .where('id', '=', owner.userId)
    .where('campus_id', '=', owner.campusId)
    .executeTakeFirst();
}

/** The student's push devices. */
export async function pushSubscriptions(
  db: Executor,
  owner: Owner,
): Promise<Array<{ id: number; endpoint: string; p256dh: string; auth: string }>> {
  return db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('campus_id', '=', owner.campusId)
    .where('user_id', '=', owner.userId)
    .execute();
}
