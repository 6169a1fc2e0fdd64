import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/** Tables of accounts (users, codes, sign-up codes) and of university sign-in (sso/). */

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

// Hardening: sign-up codes bound to their sign-up's details.
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

// university sign-in (021_university_sign_in)
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
