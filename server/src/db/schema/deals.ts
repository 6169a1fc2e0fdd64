import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/**
 * Tables of deals (005_deals): offers, meet-ups and deals, bundles' items, the claims on free
 * items (claims/) and the reviews of deals (trust/).
 */

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

// 019_bundles: the listings of a bundle offer, and what a bundle deal sold.
export interface OfferItemsTable {
  campus_id: CampusColumn;
  offer_id: number;
  listing_id: number;
  position: number;
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

export interface DealItemsTable {
  campus_id: CampusColumn;
  deal_id: number;
  listing_id: number;
  listing_name: string;
  position: number;
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
