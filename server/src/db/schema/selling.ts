import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/** Tables of selling (006_selling): saves, saved searches, wanted posts and their matches. */

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
