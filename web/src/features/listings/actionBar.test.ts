import { describe, expect, it } from 'vitest';
import type { Listing } from '@campus/contract';
import { actionBarState } from './components/ListingActionBar';

const SELLER = 7;
const BUYER = 9;
const OTHER = 11;

function listing(over: Partial<Listing> = {}): Listing {
  return {
    id: 1,
    name: 'Oak bookshelf',
    description: 'Five shelves',
    category: 'LIFESTYLE',
    price: 60,
    imageUrl: null,
    thumbnailUrl: null,
    imageVariants: null,
    seller: { id: SELLER, firstName: 'Nadia', lastName: 'Brooks' },
    isSold: false,
    status: 'AVAILABLE',
    free: false,
    createdAt: '2026-11-26T12:00:00.000Z',
    expiresAt: null,
    condition: null,
    courseCode: null,
    isbn: null,
    photos: [],
    mustGoBy: null,
    heldUntil: null,
    savedByMe: false,
    ...over,
  };
}

describe('actionBarState', () => {
  it('offers and chats for another student on an available listing; nothing for its seller', () => {
    expect(actionBarState(listing(), BUYER)).toEqual({ kind: 'buy' });
    expect(actionBarState(listing(), SELLER)).toBeNull();
  });

  it('shows nothing on a sold listing, to anyone', () => {
    const sold = listing({ status: 'SOLD', isSold: true });
    expect(actionBarState(sold, BUYER)).toBeNull();
    expect(actionBarState(sold, SELLER)).toBeNull();
  });

  it('leads the reserved buyer and the seller to their chat; others may still ask', () => {
    const reserved = listing({
      status: 'RESERVED',
      reservedFor: { id: BUYER, firstName: 'Leo', lastName: 'Okafor' },
    });
    expect(actionBarState(reserved, BUYER)).toEqual({
      kind: 'reserved-mine',
      buyerId: BUYER,
      label: 'Reserved for you',
    });
    expect(actionBarState(reserved, SELLER)).toEqual({
      kind: 'reserved-mine',
      buyerId: BUYER,
      label: 'Reserved for Leo',
    });
    // Other students are not told who it is reserved for (the API leaves reservedFor out).
    expect(actionBarState(listing({ status: 'RESERVED' }), OTHER)).toEqual({ kind: 'reserved-other' });
  });
});
