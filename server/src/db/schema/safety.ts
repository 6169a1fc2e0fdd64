import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/** Tables of safety (007_safety): blocks, reports, the moderation audit log, daily caps. */

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
