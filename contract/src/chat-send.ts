import { z } from './zod.js';
import { CHAT_LIMIT_MESSAGES } from './chat.js';
import { DB_INT_MAX } from './ids.js';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';

/*
 * The chat's one schema, apart from chat.ts: the unread badge of every logged-in page reads
 * chat.ts, and a module importing Zod would bring it into that first visit's JavaScript.
 */

/** Body of SEND /app/chat.send/{buyerId}/{sellerId} (spec §7). */
export const chatSendSchema = z
  .object({
    // U+0000: PostgreSQL text cannot hold it; refused alike on both databases.
    content: z
      .string()
      .max(LIMITS.chatContentMax, MESSAGES.chatContentTooLong)
      .refine((s) => !s.includes('\u0000'), CHAT_LIMIT_MESSAGES.controlCharacter)
      .optional()
      .default(''),
    listingId: z.coerce
      .number({ error: MESSAGES.chatListingRequired })
      .int()
      .positive(MESSAGES.chatListingRequired)
      .max(DB_INT_MAX, MESSAGES.chatListingRequired),
    // The URL POST /api/chats/upload answered: with photos in a bucket a signed URL, which with a
    // session token (instance roles) runs past a thousand characters. Messages store a short form.
    url: z.string().max(4096).nullish(),
  })
  .refine((m) => m.content.trim().length > 0 || !!m.url, { message: MESSAGES.chatContentRequired });
export type ChatSendPayload = z.input<typeof chatSendSchema>;
