import type { DealWithReviews, Profile, Review, ReviewPayload } from '@campus/contract';
import { parseNextLink } from './listings';
import { api, apiRequestWithResponse } from './client';

/** Trust calls (features.md §A): profiles, reviews and the caller's deals. */

export const trustKeys = {
  profile: (id: number) => ['trust', 'profile', id] as const,
  reviews: (id: number) => ['trust', 'reviews', id] as const,
  deals: ['trust', 'deals'] as const,
};

export interface Page<T> {
  items: T[];
  /** The `rel="next"` URL of the answer's Link header; null on the last page. */
  next: string | null;
}

async function page<T>(path: string, signal?: AbortSignal): Promise<Page<T>> {
  const { data, response } = await apiRequestWithResponse<unknown>(path, { signal });
  return {
    items: Array.isArray(data) ? (data as T[]) : [],
    next: parseNextLink(response.headers.get('Link')),
  };
}

/** Same-origin next links are reduced to path + query so the API base applies. */
function pathOf(next: string): string {
  const url = new URL(next, window.location.origin);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}` : url.toString();
}

export function getProfile(id: number, signal?: AbortSignal): Promise<Profile> {
  return api.get<Profile>(`/users/${id}/profile`, { signal });
}

export function getReviews(id: number, next: string | null, signal?: AbortSignal): Promise<Page<Review>> {
  return page<Review>(next ? pathOf(next) : `/users/${id}/reviews?limit=10`, signal);
}

export function getDeals(next: string | null, signal?: AbortSignal): Promise<Page<DealWithReviews>> {
  return page<DealWithReviews>(next ? pathOf(next) : '/deals?limit=20', signal);
}

export function updateBio(bio: string): Promise<Profile> {
  return api.patch<Profile>('/users/me', { bio });
}

export function uploadAvatar(photo: Blob): Promise<Profile> {
  const form = new FormData();
  form.append('image', photo, 'avatar.jpg');
  return api.upload<Profile>('/users/me/avatar', form);
}

export function postReview(dealId: number, review: ReviewPayload): Promise<DealWithReviews> {
  return api.post<DealWithReviews>(`/deals/${dealId}/review`, review);
}
