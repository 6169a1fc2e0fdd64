import { describe, expect, it } from 'vitest';
import type { ChatMessage, Offer } from '@campus/contract';
import { roomPreview } from './roomPreview';

const SELLER = 3;
const BUYER = 7;

const offer: Offer = {
  id: 1,
  listingId: 5,
  roomId: '3:7',
  buyerId: BUYER,
  byId: BUYER,
  amount: 40,
  status: 'ACCEPTED',
  createdAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-11-25T10:00:00.000Z',
  holdUntil: null,
};

const message = (over: Partial<ChatMessage>): ChatMessage => ({
  id: 9,
  roomId: '3:7',
  content: 'Maya accepted the offer of $40. The listing is reserved.',
  url: null,
  senderId: SELLER,
  sentAt: '2026-11-23T11:00:00.000Z',
  listingId: 5,
  kind: 'system',
  offer,
  ...over,
});

describe('roomPreview', () => {
  it('tells a deal line to its reader, as the chat does', () => {
    expect(roomPreview(message({}), SELLER, 'Omar')).toBe(
      "You accepted Omar's offer of $40. It's reserved for Omar.",
    );
    expect(roomPreview(message({}), BUYER, 'Maya')).toBe(
      "Maya accepted your offer of $40. It's reserved for you.",
    );
  });

  it("keeps the server's words when the line has no card or the reader is not known", () => {
    const bare = message({ offer: undefined });
    expect(roomPreview(bare, SELLER, 'Omar')).toBe(bare.content);
    expect(roomPreview(message({}), null, 'Omar')).toBe(message({}).content);
  });

  it('previews other messages as before: text on one line, a photo as "Photo", nothing as empty', () => {
    expect(
      roomPreview(
        message({ kind: 'text', content: 'Is it\nstill available?', offer: undefined }),
        BUYER,
        'Maya',
      ),
    ).toBe('Is it still available?');
    expect(
      roomPreview(
        message({ kind: 'text', content: '', url: '/uploads/x.jpg', offer: undefined }),
        BUYER,
        'Maya',
      ),
    ).toBe('Photo');
    expect(roomPreview(null, BUYER, 'Maya')).toBe('');
  });
});
