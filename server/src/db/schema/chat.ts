import type { Generated } from 'kysely';
import type { CampusColumn } from './platform.js';

/** Tables of chat: rooms, messages, read markers and chat photos. */

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

/** Photos uploaded for chat, by whom (a message's `url` must be one of the sender's). */
export interface ChatUploadsTable {
  campus_id: CampusColumn;
  image_key: string;
  thumb_key: string;
  user_id: number;
  created_at: number;
}
