import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are epoch milliseconds (bigint in PostgreSQL, parsed back to
 * numbers), booleans are 0/1 integers and money is integer cents, so both dialects read the same.
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  verified: number;
  token_version: number;
  created_at: number;
}

export type CodePurpose = 'verify' | 'reset';

export interface CodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: number;
  tries_left: number;
  created_at: number;
}

export interface ListingsTable {
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
}

export interface ChatRoomsTable {
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
  id: Generated<number>;
  room_id: string;
  sender_id: number;
  content: string;
  url: string | null;
  listing_id: number | null;
  sent_at: number;
}

export interface ChatReadsTable {
  room_id: string;
  user_id: number;
  last_read_message_id: number;
}

export interface Database {
  users: UsersTable;
  codes: CodesTable;
  listings: ListingsTable;
  chat_rooms: ChatRoomsTable;
  chat_messages: ChatMessagesTable;
  chat_reads: ChatReadsTable;
}
