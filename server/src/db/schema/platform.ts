import type { Generated } from 'kysely';

/**
 * Tables of the deployment itself: its campuses, its id and the durable job queue; and the
 * campus column every campus-owned table carries.
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

/** One row: this deployment's id, the default prefix of its Redis channels and keys. */
export interface DeploymentTable {
  id: string;
  created_at: number;
}

// Hardening: the durable job queue.
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
