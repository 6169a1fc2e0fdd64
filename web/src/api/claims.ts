import type { Claim, ClaimDraw } from '@campus/contract';
import { api } from './client';

/** Claims on free items (features.md §H). */
export const claimKeys = {
  all: ['claims'] as const,
  listing: (listingId: number) => ['claims', 'listing', listingId] as const,
  draw: (listingId: number) => ['claims', 'draw', listingId] as const,
};

/** All claims for the giver, the caller's own for anyone else (first 50: a giveaway rarely has more). */
export function fetchClaims(listingId: number): Promise<Claim[]> {
  return api.get<Claim[]>(`/listings/${listingId}/claims?limit=50`);
}

export function claimItem(listingId: number, note: string): Promise<Claim> {
  return api.post<Claim>(`/listings/${listingId}/claims`, { note });
}

export function withdrawClaim(listingId: number): Promise<Claim> {
  return api.delete<Claim>(`/listings/${listingId}/claims/mine`);
}

export function chooseClaim(claimId: number): Promise<Claim> {
  return api.post<Claim>(`/claims/${claimId}/choose`);
}

export function drawClaims(listingId: number): Promise<ClaimDraw> {
  return api.post<ClaimDraw>(`/listings/${listingId}/claims/draw`);
}

/** The recorded decision, or null before there is one. */
export async function fetchDraw(listingId: number): Promise<ClaimDraw | null> {
  try {
    return await api.get<ClaimDraw>(`/listings/${listingId}/claims/draw`);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

/** How many free items are up for grabs on the campus (for the kind word to those who missed one). */
export async function countFreeNearby(): Promise<{ count: number; more: boolean }> {
  const items = await api.get<unknown[]>('/listings/filters?free=true&limit=20');
  return { count: items.length, more: items.length === 20 };
}
