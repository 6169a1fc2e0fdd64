import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/**
 * Tables of notifications (features.md §D): the centre, preferences, push subscriptions and the
 * marks that coalesce chat and offer e-mail.
 */

export interface NotificationsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  type: string;
  title: string;
  body: string;
  link: string;
  subject_id: number | null;
  created_at: number;
  read_at: number | null;
  // 013_job_lanes: one row per key (a re-run job cannot tell a student twice), and when its
  // e-mail/push went out (a re-run of the delivery job sends nothing).
  dedupe_key: string | null;
  delivered_at: number | null;
}

export interface NotificationPrefsTable {
  campus_id: CampusColumn;
  user_id: number;
  kind: string;
  channel: string;
  enabled: number;
}

export interface PushSubscriptionsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

export interface ChatMailMarksTable {
  campus_id: CampusColumn;
  room_id: string;
  user_id: number;
  last_sent_at: number;
}

/** 014_deals_integrity: the offer e-mails of one chat, coalesced (notifications/offer-mail.ts). */
export interface OfferMailMarksTable {
  campus_id: CampusColumn;
  user_id: number;
  /** The chat's link, /chat/{roomId}, as the notifications carry it. */
  link: string;
  last_notification_id: number;
  last_sent_at: number;
}
