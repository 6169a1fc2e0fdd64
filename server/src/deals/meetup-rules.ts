import { DEAL_EVENTS } from '@campus/contract';
import * as store from './store.js';
import type { DealsTx } from './tx.js';

/**
 * Cancels the open (PROPOSED or CONFIRMED) meet-up of a room about a listing, posting the change
 * so its card updates. Used when the reservation it was for ends.
 */
export async function cancelOpenMeetups(tx: DealsTx, topic: store.RoomTopic, actorId: number): Promise<void> {
  const rows = await tx.db
    .updateTable('meetups')
    .set({ status: 'CANCELLED', updated_at: tx.now })
    .where('room_id', '=', topic.roomId)
    .where('listing_id', '=', topic.listingId)
    .where('status', 'in', ['PROPOSED', 'CONFIRMED'])
    .returningAll()
    .execute();
  const names = await store.firstNames(tx.db, actorId ? [actorId] : []);
  for (const meetup of rows) {
    await tx.post(
      topic,
      {
        senderId: actorId,
        kind: 'system',
        content: DEAL_EVENTS.meetupCancelled(names.get(actorId) ?? 'Campus Market'),
      },
      { meetup },
    );
  }
}
