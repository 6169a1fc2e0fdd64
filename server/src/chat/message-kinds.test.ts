import type { ChatMessage, Meetup, Offer } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { MessageKinds } from './message-kinds.js';
import type { MessageRow } from './messages-store.js';

function row(id: number, refs: { offer_id?: number; meetup_id?: number } = {}): MessageRow {
  return {
    id,
    room_id: '1:2',
    sender_id: 1,
    content: `message ${id}`,
    url: null,
    listing_id: 7,
    sent_at: 0,
    flags: '',
    kind: refs.offer_id ? 'offer' : refs.meetup_id ? 'meetup' : 'text',
    offer_id: refs.offer_id ?? null,
    meetup_id: refs.meetup_id ?? null,
  };
}

const message = (r: MessageRow): ChatMessage => ({
  id: r.id,
  roomId: r.room_id,
  content: r.content,
  url: r.url,
  senderId: r.sender_id,
  sentAt: new Date(0).toISOString(),
  listingId: r.listing_id,
  kind: r.kind,
});

describe('the registry of message kinds', () => {
  it('reads each kind of card once per page and attaches its current state', async () => {
    const reads: Array<{ kind: string; ids: readonly number[] }> = [];
    const offer = { id: 5, status: 'ACCEPTED' } as Offer;
    const meetup = { id: 9, status: 'CONFIRMED' } as Meetup;
    const kinds = new MessageKinds([
      {
        field: 'offer',
        load: async (ids) => {
          reads.push({ kind: 'offer', ids });
          return new Map([[5, offer]]);
        },
      },
      {
        field: 'meetup',
        load: async (ids) => {
          reads.push({ kind: 'meetup', ids });
          return new Map([[9, meetup]]);
        },
      },
    ]);
    const rows = [row(1, { offer_id: 5 }), row(2), row(3, { offer_id: 5 }), row(4, { meetup_id: 9 })];
    const page = await kinds.attachCards(rows.map(message), rows);
    expect(reads).toEqual([
      { kind: 'offer', ids: [5] },
      { kind: 'meetup', ids: [9] },
    ]);
    expect(page.map((m) => [m.id, m.offer?.status, m.meetup?.status])).toEqual([
      [1, 'ACCEPTED', undefined],
      [2, undefined, undefined],
      [3, 'ACCEPTED', undefined],
      [4, undefined, 'CONFIRMED'],
    ]);
  });

  it('reads nothing for a page without cards, and knows no card without a kind for it', async () => {
    let loads = 0;
    const rows = [row(1), row(2, { meetup_id: 9 })];
    const messages = rows.map(message);
    const kinds = new MessageKinds([
      {
        field: 'offer',
        load: async () => {
          loads++;
          return new Map();
        },
      },
    ]);
    expect(await kinds.attachCards(messages, rows)).toBe(messages);
    expect(loads).toBe(0);
    expect(await new MessageKinds().attachCards(messages, rows)).toBe(messages);
  });
});
