import type { ChatMessage, Listing } from '@campus/contract';

/**
 * Navigation states of the listing screens (spec §2). They arrive as `unknown` (the history entry
 * may come from an older version, another tab or a hand-made link), so each is read with a guard.
 */

export function isListing(value: unknown): value is Listing {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const seller = v.seller as Record<string, unknown> | null | undefined;
  return (
    typeof v.id === 'number' &&
    typeof v.name === 'string' &&
    typeof v.category === 'string' &&
    typeof v.price === 'number' &&
    typeof seller === 'object' &&
    seller !== null &&
    typeof seller.id === 'number'
  );
}

function field(state: unknown, key: string): unknown {
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>)[key] : undefined;
}

/** /single_listing/:id — the listing the card showed, to render at once. */
export interface SingleListingState {
  listing: Listing;
}

export function listingFromState(state: unknown, id: number): Listing | undefined {
  const listing = field(state, 'listing');
  return isListing(listing) && listing.id === id ? listing : undefined;
}

/** /cat_listing — `categoryPassed` (a category) and optionally preloaded `singleCatListings`. */
export interface CategoryPageState {
  categoryPassed?: string;
  singleCatListings?: Listing[];
}

export function categoryPassedFromState(state: unknown): string | undefined {
  const value = field(state, 'categoryPassed');
  return typeof value === 'string' ? value : undefined;
}

export function preloadedListingsFromState(state: unknown): Listing[] | undefined {
  const value = field(state, 'singleCatListings');
  return Array.isArray(value) && value.every(isListing) ? value : undefined;
}

/**
 * State handed to /chat and /chat/{roomKey} by 'Chat with the seller' (spec §2): origin path,
 * buyer and seller ids, room key, listing id and the loaded history, plus a small listing summary
 * the chat header can show.
 */
export interface ChatHandoffState {
  from: string;
  buyerId: number;
  sellerId: number;
  roomkey: string;
  listingId: number;
  history: ChatMessage[];
  listing: { id: number; name: string; thumbnailUrl: string | null };
}
