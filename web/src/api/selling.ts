import type { Category, Condition, CourseBooks, SavedSearch, WantedPost } from '@campus/contract';
import { api, apiRequestWithResponse } from './client';
import { parseNextLink, toRequestPath } from './listings';

/** Saved searches and wanted posts (features.md §B). Prices are dollars, as everywhere in the API. */

export const sellingKeys = {
  searches: ['searches'] as const,
  wanted: (categories: readonly Category[]) => ['wanted', 'open', ...categories] as const,
  wantedAll: ['wanted'] as const,
  myWanted: ['wanted', 'self'] as const,
  courses: ['listings', 'courses'] as const,
  course: (code: string) => ['listings', 'courses', code] as const,
};

/**
 * GET /listings/courses: the campus's course codes with books for sale, most books first; with
 * `code` (normalised), that course only ([] when it has no books).
 */
export function listCourseBooks(code?: string, signal?: AbortSignal): Promise<CourseBooks[]> {
  const path = code ? `/listings/courses?${new URLSearchParams({ code })}` : '/listings/courses';
  return api.get<CourseBooks[]>(path, { signal });
}

export interface NewSavedSearch {
  query?: string;
  categories?: readonly Category[];
  priceMin?: number;
  priceMax?: number;
  conditions?: readonly Condition[];
  courseCode?: string;
}

export function listSavedSearches(signal?: AbortSignal): Promise<SavedSearch[]> {
  return api.get<SavedSearch[]>('/searches', { signal });
}

export function createSavedSearch(search: NewSavedSearch): Promise<SavedSearch> {
  return api.post<SavedSearch>('/searches', search);
}

export async function deleteSavedSearch(id: number): Promise<void> {
  await api.delete<unknown>(`/searches/${id}`);
}

export interface WantedPage {
  items: WantedPost[];
  next: string | null;
}

/** GET /wanted (everyone's open posts) or /wanted/self, one page; later pages follow `Link`. */
export async function fetchWantedPage(
  which: 'open' | 'self',
  categories: readonly Category[],
  cursorUrl: string | null,
  signal?: AbortSignal,
): Promise<WantedPage> {
  const path = cursorUrl ? toRequestPath(cursorUrl) : which === 'self' ? '/wanted/self' : '/wanted';
  const query = cursorUrl ? undefined : which === 'open' ? { categories, limit: 24 } : { limit: 24 };
  const { data, response } = await apiRequestWithResponse<unknown>(path, { query, signal });
  return {
    items: Array.isArray(data) ? (data as WantedPost[]) : [],
    next: parseNextLink(response.headers.get('Link')),
  };
}

export interface NewWanted {
  title: string;
  description?: string;
  category: Category;
  maxPrice?: string;
  courseCode?: string;
}

export function createWanted(post: NewWanted): Promise<WantedPost> {
  return api.post<WantedPost>('/wanted', post);
}

export async function deleteWanted(id: number): Promise<void> {
  await api.delete<unknown>(`/wanted/${id}`);
}
