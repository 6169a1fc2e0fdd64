import type { SendGuard } from '../chat/index.js';
import type { AppContext } from '../context.js';
import { blockedError } from './blocks.js';
import { takeDaily } from './caps.js';
import { scamFlags } from './scam.js';

/**
 * Chat SEND under the safety rules: refused (403) when either student blocked the other, the
 * sender's first message of a room counts against the daily cap of new conversations (429), and
 * the message gets its anti-scam flags (never refused for them). Chat reads `blocked` and
 * `earlier` with its own send checks, so a SEND costs one read round trip.
 */
export function chatSendGuard(ctx: AppContext): SendGuard {
  return async ({ senderId, content, blocked, earlier }) => {
    if (blocked) throw blockedError();
    if (earlier === 0) await takeDaily(ctx, senderId, 'conversation');
    return scamFlags(content, earlier);
  };
}
