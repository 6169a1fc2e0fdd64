import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/**
 * Tables of listings: the listing, its photos and price drops, and the move-out plans that
 * price and unlist them (moving-out/).
 */

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

export interface ListingPriceDropsTable {
  campus_id: CampusColumn;
  id: Generated<number>;
  listing_id: number;
  old_price_cents: number;
  new_price_cents: number;
  created_at: number;
}

// moving out (020_hold_and_move_out)
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
