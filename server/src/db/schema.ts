/**
 * Table types for Kysely. Timestamps are epoch milliseconds (bigint in PostgreSQL, parsed back to
 * numbers), booleans are 0/1 integers and money is integer cents, so both dialects read the same.
 * Each domain's tables are in schema/ (one file per domain); this file is their one front door.
 */
import type { CampusesTable, DeploymentTable, JobsTable } from './schema/platform.js';
import type {
  CodesTable,
  SignupCodesTable,
  SsoAssertionsTable,
  SsoExchangeCodesTable,
  SsoRequestsTable,
  UsersTable,
} from './schema/accounts.js';
import type {
  ListingPhotosTable,
  ListingPriceDropsTable,
  ListingsTable,
  MoveOutPlansTable,
  MoveOutPricesTable,
} from './schema/listings.js';
import type {
  ListingSavesTable,
  SavedSearchMatchesTable,
  SavedSearchesTable,
  WantedMatchesTable,
  WantedPostsTable,
} from './schema/selling.js';
import type { ChatMessagesTable, ChatReadsTable, ChatRoomsTable, ChatUploadsTable } from './schema/chat.js';
import type {
  ClaimDrawsTable,
  ClaimsTable,
  DealItemsTable,
  DealsTable,
  MeetupsTable,
  OfferItemsTable,
  OffersTable,
  ReviewsTable,
} from './schema/deals.js';
import type { BlocksTable, CreationLogTable, ModAuditTable, ReportsTable } from './schema/safety.js';
import type {
  ChatMailMarksTable,
  NotificationPrefsTable,
  NotificationsTable,
  OfferMailMarksTable,
  PushSubscriptionsTable,
} from './schema/notifications.js';

export type * from './schema/platform.js';
export type * from './schema/accounts.js';
export type * from './schema/listings.js';
export type * from './schema/selling.js';
export type * from './schema/chat.js';
export type * from './schema/deals.js';
export type * from './schema/safety.js';
export type * from './schema/notifications.js';

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
