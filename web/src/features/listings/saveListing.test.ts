import { describe, expect, it } from 'vitest';
import type { Listing } from '@campus/contract';
import type { ListingFormResult } from './components/listingFormValues';
import { changedFields } from './saveListing';

const listing: Listing = {
  id: 7,
  name: 'Calculus textbook',
  description: 'Stewart, 8th edition',
  category: 'BOOKS',
  price: 40,
  imageUrl: null,
  thumbnailUrl: null,
  imageVariants: null,
  seller: { id: 1, firstName: 'Ava', lastName: 'L' },
  isSold: false,
  status: 'AVAILABLE',
  free: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  expiresAt: null,
  condition: 'GOOD',
  courseCode: 'MTH132',
  isbn: null,
  photos: [],
  mustGoBy: null,
  heldUntil: null,
  savedByMe: false,
};

const form = (over: Partial<ListingFormResult> = {}): ListingFormResult => ({
  name: listing.name,
  description: listing.description,
  category: listing.category,
  price: '40',
  condition: 'GOOD',
  courseCode: 'MTH132',
  isbn: null,
  photos: [],
  free: false,
  claimWindowHours: null,
  ...over,
});

describe('changedFields (PATCH /listing/{id} body)', () => {
  it('is empty when nothing changed, whatever the price spelling', () => {
    expect(changedFields(listing, form({ price: '40.00' }))).toEqual({});
  });
  it('sends only what changed; null clears', () => {
    expect(changedFields(listing, form({ price: '35.5', condition: null, isbn: '9780134685991' }))).toEqual({
      price: '35.5',
      condition: null,
      isbn: '9780134685991',
    });
  });
  it('lets the server drop condition and textbook fields on a move to services', () => {
    expect(changedFields(listing, form({ category: 'SERVICES', condition: null, courseCode: null }))).toEqual(
      {
        category: 'SERVICES',
      },
    );
  });
});
