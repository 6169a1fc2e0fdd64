import { z } from './zod.js';
import { formatDollars } from './money.js';

/** Section D of features.md: notification centre, e-mail, web push, chat presence. */

export const NOTIFICATION_TYPES = [
  'OFFER_RECEIVED',
  'OFFER_ANSWERED',
  'MEETUP_PROPOSED',
  'MEETUP_ANSWERED',
  'MEETUP_REMINDER',
  'DEAL_CONFIRMED',
  'REVIEW_REQUEST',
  'REVIEW_REVEALED',
  'SAVED_SEARCH_MATCH',
  'WANTED_MATCH',
  'PRICE_DROP',
  'LISTING_REMOVED',
  'LISTING_EXPIRING',
  'CLAIMS_READY',
  'CLAIM_WON',
  'CLAIM_LOST',
  'HOLD_REMINDER',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const isNotificationType = (v: string): v is NotificationType =>
  (NOTIFICATION_TYPES as readonly string[]).includes(v);

/**
 * What a student switches on or off per channel: every notification type, plus unread chat
 * messages (which are e-mailed and pushed but never enter the centre: the inbox shows them).
 */
export const NOTIFICATION_KINDS = [...NOTIFICATION_TYPES, 'CHAT_MESSAGE'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const isNotificationKind = (v: string): v is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(v);

export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  OFFER_RECEIVED: 'Offers on my listings',
  OFFER_ANSWERED: 'Answers to my offers',
  MEETUP_PROPOSED: 'Meet-up proposals',
  MEETUP_ANSWERED: 'Answers to my meet-up proposals',
  MEETUP_REMINDER: 'Meet-up reminders (1 hour before)',
  DEAL_CONFIRMED: 'Confirmed hand-offs',
  REVIEW_REQUEST: 'Requests to review a deal',
  REVIEW_REVEALED: 'Reviews of me',
  SAVED_SEARCH_MATCH: 'New listings for my saved searches',
  WANTED_MATCH: 'Listings that match my wanted posts',
  PRICE_DROP: 'Price drops on saved listings',
  LISTING_REMOVED: 'Moderation of my listings',
  LISTING_EXPIRING: 'My listings about to expire',
  CLAIMS_READY: 'Claims on my free items, when the window closes',
  CLAIM_WON: 'Free items I got',
  CLAIM_LOST: 'Free items someone else got',
  HOLD_REMINDER: 'Reminders about items held for later (7 days and 1 day before)',
  CHAT_MESSAGE: 'Unread chat messages',
};

export const NOTIFICATION_LIMITS = {
  pageDefault: 20,
  pageMax: 50,
  /** PRICE_DROP only when the price falls by at least this share of the last announced price. */
  priceDropPercent: 10,
  /** …and at most one PRICE_DROP per listing per saver in this many hours (raise-and-drop spam). */
  priceDropGapHours: 24,
  /** A chat message still unread this long after it arrived is e-mailed… */
  chatEmailDelayMinutes: 10,
  /** …at most once per room in this period. */
  chatEmailGapMinutes: 60,
  /** Offers in one chat are gathered this long before one e-mail tells of them… */
  offerEmailWindowMinutes: 2,
  /** …and a chat's offers are e-mailed at most once in this period. */
  offerEmailGapMinutes: 15,
  /** Campus night: e-mail and push wait until it ends (hours, campus time). */
  quietStartHour: 22,
  quietEndHour: 7,
  /** At most one typing frame per room per this many ms (server enforced). */
  typingIntervalMs: 3000,
  pushSubscriptionsMax: 10,
  /** A confirmed meet-up is recalled this long before its time. */
  meetupReminderLeadMinutes: 60,
  /** A student who has not rated this long after a deal is asked once (within the 14-day window). */
  reviewRequestDelayHours: 24,
  endpointMax: 1000,
} as const;

/** One notification as the centre lists it (features.md §D). */
export interface AppNotification {
  id: number;
  type: NotificationType;
  createdAt: string;
  readAt: string | null;
  title: string;
  body: string;
  /** A path in the web app (e.g. /listing/12) that the bell, e-mail and push open. */
  link: string;
}

export const notificationResponse = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  link: z.string(),
});

export const notificationPageResponse = z.object({
  notifications: z.array(notificationResponse),
  unreadCount: z.number().int(),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageResponse>;

export const notificationPageQuery = z.object({
  before: z.coerce.number().int().min(1).max(2147483647).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_LIMITS.pageMax).optional(),
});

export const markNotificationsReadBody = z.object({
  upTo: z.number({ error: 'upTo must be a notification id' }).int().min(1).max(2147483647),
});
export const markNotificationsReadResponse = z.object({ unreadCount: z.number().int() });

const channelSettings = z.object({ email: z.boolean(), push: z.boolean() });
export type ChannelSettings = z.infer<typeof channelSettings>;

/** GET /users/me/notification-settings: every kind with both channels. */
export const notificationSettingsResponse = z.object({
  kinds: z.record(z.enum(NOTIFICATION_KINDS), channelSettings),
});
export type NotificationSettings = { kinds: Record<NotificationKind, ChannelSettings> };

/** PUT: any subset of kinds and channels; the rest stays as it is. */
export const notificationSettingsBody = z.object({
  kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS), channelSettings.partial()),
});

export const pushKeyResponse = z.object({ publicKey: z.string() });

/** The browser's PushSubscription.toJSON(). */
export const pushSubscriptionBody = z.object({
  endpoint: z.string().max(NOTIFICATION_LIMITS.endpointMax),
  expirationTime: z.number().nullish(),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'keys.p256dh must be a base64url P-256 key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, 'keys.auth must be a base64url secret'),
  }),
});
export const pushUnsubscribeBody = z.object({ endpoint: z.string().max(NOTIFICATION_LIMITS.endpointMax) });

/** What a push message carries (the service worker shows it and opens `link`). */
export interface PushPayload {
  title: string;
  body: string;
  link: string;
  tag: string;
}

/** Live frames on NOTIFY_STOMP_PATHS.presence. */
export type PresenceFrame =
  | { type: 'typing'; roomId: string; userId: number }
  | { type: 'seen'; roomId: string; userId: number; lastReadMessageId: number };

export const chatPresenceResponse = z.object({
  roomId: z.string(),
  /** The other party's read marker: "Seen" goes under your messages up to this id. */
  peerLastReadMessageId: z.number().int().nullable(),
});

export const NOTIFY_STOMP_PATHS = {
  /** New notifications of the caller; body is an AppNotification plus `unreadCount`. */
  notifications: '/user/queue/notifications',
  /** Typing and Seen of the caller's chat peers; body is a PresenceFrame. */
  presence: '/user/queue/presence',
  /** SEND here (empty body) while typing in a room. */
  typingPrefix: '/app/chat.typing/',
} as const;

const clockHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export const NOTIFY_MESSAGES = {
  /** The settings page's introduction, with campus night as the server applies it. */
  settingsIntro:
    'Everything always appears under the bell. Choose what also reaches you by e-mail and push. ' +
    `At night (${clockHour(NOTIFICATION_LIMITS.quietStartHour)}–${clockHour(NOTIFICATION_LIMITS.quietEndHour)} ` +
    `campus time), e-mail and push wait until ${clockHour(NOTIFICATION_LIMITS.quietEndHour)}.`,
  endpointInvalid: 'The push endpoint must be an https:// URL from the browser push service',
  endpointInternal:
    'The push endpoint must be a public push service, not a local, private or internal address. Turn notifications off and on again in your browser.',
  endpointUnresolvable:
    'The push endpoint’s server could not be found. Turn notifications off and on again in your browser.',
  endpointCheckUnavailable:
    'Push notifications could not be turned on right now. Please try again in a minute.',
  subscriptionsTooMany: `At most ${NOTIFICATION_LIMITS.pushSubscriptionsMax} devices can receive push notifications; remove one first`,
  unsubscribeInvalid: 'This unsubscribe link is not valid. Change your e-mail settings in the app instead.',
  unsubscribed: 'You will no longer get these e-mails.',
  settingsEmpty: 'Send at least one kind to change',
  typingForbidden: 'You can only type in your own conversations',
} as const;

/** Titles and bodies of the deal and review notifications (the body of a chat event is its text). */
export const DEAL_NOTICE = {
  title(type: NotificationType, state: string, listing: string): string {
    const l = `“${listing}”`;
    switch (type) {
      case 'OFFER_RECEIVED':
        return `New offer on ${l}`;
      case 'OFFER_ANSWERED':
        if (state === 'ACCEPTED') return `Offer accepted: ${l} is reserved`;
        if (state === 'DECLINED') return `Offer declined: ${l}`;
        if (state === 'EXPIRED') return `Offer expired: ${l}`;
        if (state === 'CANCELLED') return `Reservation released: ${l}`;
        return `Offer update: ${l}`;
      case 'MEETUP_PROPOSED':
        return `Meet-up proposed for ${l}`;
      case 'HOLD_REMINDER':
        return `Held item: hand-off of ${l} coming up`;
      case 'MEETUP_ANSWERED':
        if (state === 'CONFIRMED') return `Meet-up confirmed for ${l}`;
        if (state === 'DECLINED') return `Meet-up declined for ${l}`;
        if (state === 'CANCELLED') return `Meet-up cancelled for ${l}`;
        if (state === 'NO_SHOW') return `No-show reported for ${l}`;
        return `Meet-up update for ${l}`;
      default:
        return l;
    }
  },
  reminderTitle: (listing: string) => `Meet-up in 1 hour: “${listing}”`,
  reminderBody: (place: string, time: string, buyer: boolean) =>
    `${place} at ${time}. ${buyer ? 'Have your hand-off code ready.' : 'Ask for the hand-off code when you meet.'}`,
  dealTitle: (sold: boolean, listing: string, price: number) =>
    sold
      ? `Sold: “${listing}” for ${formatDollars(price)}`
      : `You bought “${listing}” for ${formatDollars(price)}`,
  dealBody: (other: string) =>
    `Rate ${other}: your review stays hidden until you have both rated, or 14 days have passed.`,
  reviewTitle: (other: string) => `How did it go with ${other}?`,
  reviewBody: (listing: string, daysLeft: number) =>
    `Leave a review for “${listing}”. ${daysLeft === 1 ? '1 day' : `${daysLeft} days`} left to rate.`,
  revealedTitle: (listing: string) => `Reviews for “${listing}” are visible`,
  revealedBody: 'You have both rated, or the review window closed. See what was said about you.',
  /** One e-mail for a burst of offers in one chat: the latest offer, and how many came with it. */
  offersBody: (latest: string, count: number) =>
    count === 1 ? latest : `${latest}. That is the latest of ${count} new offers in this chat.`,
} as const;
