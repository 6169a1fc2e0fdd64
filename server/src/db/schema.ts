import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are epoch milliseconds (bigint in PostgreSQL, parsed back to
 * numbers), booleans are 0/1 integers and money is integer cents, so both dialects read the same.
 */
/**
 * The campus a row belongs to (migration 015, features.md §E). Optional on insert: the campus in
 * scope fills it (db/campus-scope.ts), and a row written outside any campus is refused.
 */
export type CampusColumn = Generated<number>;

/** One campus (campuses/store.ts writes it); the JSON columns hold the CAMPUSES entry's lists. */
export interface CampusesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  /** JSON string[] */
  email_domains: string;
  time_zone: string;
  about: string;
  /** JSON MeetupSpot[] */
  meetup_spots: string;
  /** JSON ProhibitedRule[]: the campus's own, added to the defaults */
  prohibited_terms: string;
  /** JSON string[] (lower case) */
  moderators: string;
  /** JSON string[] (lower case) */
  hosts: string;
  /** JSON CampusSso, or null */
  sso: string | null;
  /** JSON MoveOutSeason, or null (020_hold_and_move_out) */
  move_out_season: string | null;
  is_default: number;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  verified: number;
  token_version: number;
  created_at: number;
  // trust (011_trust)
  bio: string | null;
  avatar_key: string | null;
  avatar_thumb_key: string | null;
  // safety (007_safety)
  suspended_at: number | null;
  suspended_until: number | null;
  suspension_reason: string | null;
  verified_at: number | null;
  deleted_at: number | null;
}

// 'login': the e-mailed code asked for once an account passed its failed-login ceiling.
export type CodePurpose = 'verify' | 'reset' | 'login';

export interface CodesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: number;
  tries_left: number;
  created_at: number;
}

export interface ListingsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  seller_id: number;
  name: string;
  description: string;
  category: string;
  price_cents: number;
  image_key: string | null;
  thumb_key: string | null;
  is_sold: number;
  created_at: number;
  updated_at: number;
  // selling (006_selling)
  condition: string | null;
  course_code: string | null;
  isbn: string | null;
  // safety (007_safety): null, 'REPORTED' or 'REMOVED'
  moderation: string | null;
  moderation_reason: string | null;
  // deals (005_deals): is_sold === (status === 'SOLD') always.
  status: Generated<ListingStatusColumn>;
  reserved_buyer_id: number | null;
  accepted_offer_id: number | null;
  // freshness (017_listing_freshness): listed until then; null only before the first start-up.
  expires_at: number | null;
  // claims (018_free_items_claims): a free listing's claim window; null on priced listings.
  claim_window_hours: Generated<number | null>;
  // moving out (020_hold_and_move_out): off the market since then, or null
  unlisted_at: Generated<number | null>;
  // moving out (020_hold_and_move_out): turned free then (thenFree); its claim window starts then
  free_from: Generated<number | null>;
}

export type ListingStatusColumn = 'AVAILABLE' | 'RESERVED' | 'SOLD';

export interface ChatRoomsTable {
  campus_id: CampusColumn;
  id: string;
  low_user_id: number;
  high_user_id: number;
  buyer_id: number;
  seller_id: number;
  listing_id: number | null;
  message_count: number;
  created_at: number;
  last_activity_at: number;
}

export interface ChatMessagesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  room_id: string;
  sender_id: number;
  content: string;
  url: string | null;
  listing_id: number | null;
  sent_at: number;
  /** Comma-separated anti-scam flags (007_safety); '' for none. */
  flags: Generated<string>;
  // deals (005_deals)
  kind: Generated<'text' | 'offer' | 'meetup' | 'system'>;
  offer_id: number | null;
  meetup_id: number | null;
}

export interface ChatReadsTable {
  campus_id: CampusColumn;
  room_id: string;
  user_id: number;
  last_read_message_id: number;
}

// selling (006_selling)
export interface ListingPhotosTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  position: number;
  image_key: string;
  thumb_key: string;
  created_at: number;
}

export interface ListingSavesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  listing_id: number;
  created_at: number;
}

export interface SavedSearchesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  query: string;
  categories: string;
  price_min_cents: number | null;
  price_max_cents: number | null;
  conditions: string;
  course_code: string | null;
  created_at: number;
}

export interface WantedPostsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  title: string;
  description: string;
  category: string;
  max_price_cents: number | null;
  course_code: string | null;
  created_at: number;
  expires_at: number;
}

export interface SavedSearchMatchesTable {
  campus_id: CampusColumn;
  user_id: number;
  listing_id: number;
  saved_search_id: number;
  created_at: number;
}

export interface WantedMatchesTable {
  campus_id: CampusColumn;
  user_id: number;
  listing_id: number;
  wanted_id: number;
  created_at: number;
}

export interface ListingPriceDropsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  old_price_cents: number;
  new_price_cents: number;
  created_at: number;
}

// Hardening: durable job queue and sign-up codes bound to their sign-up's details.
export interface JobsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  type: string;
  payload: string;
  run_at: number;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  failed_at: number | null;
  key: string | null;
  // 013_job_lanes: claimed highest first (JOB_PRIORITY: code e-mails before everything else).
  priority: Generated<number>;
  created_at: number;
}

/** One row: this deployment's id, the default prefix of its Redis channels and keys. */
export interface DeploymentTable {
  id: string;
  created_at: number;
}

/** Photos uploaded for chat, by whom (a message's `url` must be one of the sender's). */
export interface ChatUploadsTable {
  campus_id: CampusColumn;
  image_key: string;
  thumb_key: string;
  user_id: number;
  created_at: number;
}

export interface SignupCodesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  expires_at: number;
  tries_left: number;
  created_at: number;
}

// safety (007_safety)
export interface BlocksTable {
  campus_id: CampusColumn;
  blocker_id: number;
  blocked_id: number;
  created_at: number;
}

export interface ReportsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  reporter_id: number;
  target_type: string;
  target_id: number;
  target_user_id: number | null;
  reason: string;
  details: string;
  status: string;
  outcome: string | null;
  decided_by: number | null;
  decided_at: number | null;
  created_at: number;
}

export interface ModAuditTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  moderator_id: number;
  action: string;
  target_type: string;
  target_id: number;
  reason: string;
  detail: string;
  created_at: number;
}

export interface CreationLogTable {
  campus_id: CampusColumn;
  user_id: number;
  kind: string;
  created_at: number;
}

// Notifications (features.md §D)
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

// deals (005_deals)
export interface OffersTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  room_id: string;
  buyer_id: number;
  by_id: number;
  amount_cents: number;
  status: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'COUNTERED' | 'WITHDRAWN' | 'EXPIRED' | 'CANCELLED';
  created_at: number;
  expires_at: number;
  updated_at: number;
  accepted_at: number | null;
  handoff_code: string | null;
  handoff_failures: Generated<number>;
  // 018_free_items_claims: the claim whose win created this pickup (an accepted offer of 0).
  claim_id: Generated<number | null>;
  // hold for fall (020_hold_and_move_out): YYYY-MM-DD, or null
  hold_until: Generated<string | null>;
}

// claims (018_free_items_claims)
export interface ClaimsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  claimant_id: number;
  note: string;
  status: 'OPEN' | 'CHOSEN' | 'PASSED' | 'WITHDRAWN' | 'LOST' | 'DONE';
  position: number | null;
  won_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ClaimDrawsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  method: 'CHOSEN' | 'DRAWN' | 'AUTO_DRAWN';
  by_id: number | null;
  pool_ids: string;
  order_ids: string;
  skipped_ids: string;
  winner_claim_id: number | null;
  at: number;
}

export interface MeetupsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  room_id: string;
  proposer_id: number;
  spot_id: string | null;
  place: string;
  starts_at: number;
  status: 'PROPOSED' | 'CONFIRMED' | 'DECLINED' | 'CANCELLED' | 'DONE' | 'NO_SHOW';
  created_at: number;
  updated_at: number;
  /** NO_SHOW only: the student reported as absent (reliability counts these) and the reporter. */
  reported_user_id: number | null;
  reported_by_id: number | null;
}

export interface DealsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  listing_name: string;
  seller_id: number;
  buyer_id: number;
  price_cents: number;
  completed_at: number;
  /** The accepted offer the hand-off confirmed (unique: one deal per reservation). */
  offer_id: number | null;
}

// 019_bundles: the listings of a bundle offer, and what a bundle deal sold.
export interface OfferItemsTable {
  campus_id: CampusColumn;
  offer_id: number;
  listing_id: number;
  position: number;
}

export interface DealItemsTable {
  campus_id: CampusColumn;
  deal_id: number;
  listing_id: number;
  listing_name: string;
  position: number;
}

// trust (011_trust): reviews of deals, blind until revealed_at.
export interface ReviewsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  deal_id: number;
  reviewer_id: number;
  subject_id: number;
  stars: number;
  text: string;
  tags: string;
  created_at: number;
  revealed_at: number | null;
}

export interface Database {
  campuses: CampusesTable;
  users: UsersTable;
  codes: CodesTable;
  listings: ListingsTable;
  chat_rooms: ChatRoomsTable;
  chat_messages: ChatMessagesTable;
  chat_reads: ChatReadsTable;
  // selling
  listing_photos: ListingPhotosTable;
  listing_saves: ListingSavesTable;
  saved_searches: SavedSearchesTable;
  wanted_posts: WantedPostsTable;
  saved_search_matches: SavedSearchMatchesTable;
  wanted_matches: WantedMatchesTable;
  listing_price_drops: ListingPriceDropsTable;
  // Hardening
  jobs: JobsTable;
  signup_codes: SignupCodesTable;
  // safety (007_safety)
  blocks: BlocksTable;
  reports: ReportsTable;
  mod_audit: ModAuditTable;
  creation_log: CreationLogTable;
  // Notifications
  notifications: NotificationsTable;
  notification_prefs: NotificationPrefsTable;
  push_subscriptions: PushSubscriptionsTable;
  chat_mail_marks: ChatMailMarksTable;
  offer_mail_marks: OfferMailMarksTable;
  // 010_chat_hardening
  deployment: DeploymentTable;
  chat_uploads: ChatUploadsTable;
  // deals (005_deals)
  offers: OffersTable;
  offer_items: OfferItemsTable;
  deal_items: DealItemsTable;
  meetups: MeetupsTable;
  deals: DealsTable;
  // trust (011_trust)
  reviews: ReviewsTable;
  // claims (018_free_items_claims)
  claims: ClaimsTable;
  claim_draws: ClaimDrawsTable;
  // moving out (020_hold_and_move_out)
  move_out_plans: MoveOutPlansTable;
  move_out_prices: MoveOutPricesTable;
  // university sign-in (021_university_sign_in)
  sso_requests: SsoRequestsTable;
  sso_exchange_codes: SsoExchangeCodesTable;
  sso_assertions: SsoAssertionsTable;
}

export interface SsoRequestsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  /** sha256 (hex) of the OIDC state / SAML RelayState. */
  key_hash: string;
  /** sha256 (hex) of the browser-binding cookie set by /start. */
  browser_hash: string;
  /** JSON: what the protocol checks the callback against. */
  pending: string;
  expires_at: number;
  created_at: number;
}

export interface SsoExchangeCodesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  /** sha256 (hex) of the one-time code. */
  code_hash: string;
  user_id: number;
  expires_at: number;
  created_at: number;
}

export interface SsoAssertionsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  assertion_id: string;
  expires_at: number;
  created_at: number;
}

export interface MoveOutPlansTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  user_id: number;
  /** YYYY-MM-DD in the campus time zone */
  date: string;
  /** 00:00 of `date` in the campus time zone */
  deadline_at: number;
  auto_drop: number;
  floor_percent: number;
  then_free: number;
  version: number;
  done_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface MoveOutPricesTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  seller_id: number;
  original_cents: number;
  last_auto_cents: number;
  step: number;
  seller_priced: Generated<number>;
  updated_at: number;
}
