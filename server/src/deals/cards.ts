import type { Meetup, Offer } from '@campus/contract';
import type { CardKind } from '../chat/index.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { PhotoLinks } from '../media/index.js';
import { offerAnswers } from './bundle-store.js';
import { toMeetup, type Executor } from './store.js';

/**
 * The message kinds deals contributes to chat's registry (wired in app.ts): offer and meet-up
 * cards, which history shows in their current state, each kind read in one query per page, within
 * the reader's campus (a room's cards are of its campus).
 */
export function dealCardKinds(db: Executor, links: PhotoLinks): [CardKind<'offer'>, CardKind<'meetup'>] {
  return [
    {
      field: 'offer',
      load: async (ids) => {
        const rows = await db
          .selectFrom('offers')
          .selectAll()
          .where('id', 'in', [...ids])
          .where('campus_id', '=', requireCampusId())
          .execute();
        // Bundle cards list their items: one more query for the page (features.md §H).
        const answers = await offerAnswers(db, links, rows);
        return new Map<number, Offer>(answers.map((o) => [o.id, o]));
      },
    },
    {
      field: 'meetup',
      load: async (ids) =>
        new Map<number, Meetup>(
          (
            await db
              .selectFrom('meetups')
              .selectAll()
              .where('id', 'in', [...ids])
              .where('campus_id', '=', requireCampusId())
              .execute()
          ).map((r) => [r.id, toMeetup(r)]),
        ),
    },
  ];
}
