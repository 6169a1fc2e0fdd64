import type { SendGuard } from '../chat/service.js';
import type { AppContext } from '../context.js';
import { blockedError } from './blocks.js';
import { takeDaily } from './caps.js';
import { scamFlags } from './scam.js';

/**
 * Chat SEND under the safety rules, in one round trip: refused (403) when either student blocked
 * the other, the sender's first message of a room counts against the daily cap of new
 * conversations (429), and the message gets its anti-scam flags (never refused for them).
 */
export function chatSendGuard(ctx: AppContext): SendGuard {
  return async ({ senderId, peerId, roomId, content }) => {
    const row = await ctx.db.kysely
      .selectNoFrom((eb) => [
        eb
          .selectFrom('blocks')
          .select('blocker_id')
          .where((b) =>
            b.or([
              b.and([b('blocker_id', '=', senderId), b('blocked_id', '=', peerId)]),
              b.and([b('blocker_id', '=', peerId), b('blocked_id', '=', senderId)]),
            ]),
          )
          .limit(1)
          .as('blocker'),
        eb.selectFrom('chat_rooms').select('message_count').where('id', '=', roomId).as('earlier'),
      ])
      .executeTakeFirst();
    if (row?.blocker !== null && row?.blocker !== undefined) throw blockedError();
    const earlier = Number(row?.earlier ?? 0);
    if (earlier === 0) await takeDaily(ctx, senderId, 'conversation');
    return scamFlags(content, earlier);
  };
}
