import { LIMITS, type Category, type Condition, type Listing, type Sort } from '@campus/contract';
import { api, apiRequestWithResponse, toFormData, type RequestOptions } from './client';

/**
 * Listing calls (spec §7). Every list endpoint pages with `limit`/`cursor` and gives the
 * next page in a `Link: <url>; rel="next"` header; the body stays a JSON array.
 */

/** Which list to read. Search and filters carry the query-string state of /all_listings. */
export type ListingsSource =
  | { kind: 'all' }
  | { kind: 'recent' }
  | { kind: 'self' }
  | { kind: 'category'; category: Category }
  | ({ kind: 'filters' } & SellingFilters)
  | ({ kind: 'search'; query: string } & SellingFilters)
  /** GET /listings/saved: the caller's saved listings, newest save first. */
  | { kind: 'saved' }
  /** GET /listings/moving-out: students moving out, soonest deadline first (one seller's shelf). */
  | { kind: 'movingOut'; sellerId?: number };

/** Filters and order of /listings/filters and /listings/search (features.md §B adds the last four). */
export interface SellingFilters {
  categories: readonly Category[];
  priceMin?: number;
  priceMax?: number;
  conditions?: readonly Condition[];
  courseCode?: string;
  isbn?: string;
  sort?: Sort;
  /** features.md §H: free items only. */
  free?: boolean;
}

export interface ListingsPage {
  items: Listing[];
  /** URL (or path) of the next page from the `Link` header; null on the last page. */
  next: string | null;
}

/** Query keys: everything under ['listings'] is invalidated after a change to any listing. */
export const listingKeys = {
  all: ['listings'] as const,
  lists: () => ['listings', 'list'] as const,
  list: (source: ListingsSource, limit: number) => ['listings', 'list', source, limit] as const,
  detail: (id: number) => ['listings', 'detail', id] as const,
};

/**
 * The `rel="next"` target of a `Link` header (RFC 8288), or null. Handles several links in one
 * header and quoted or unquoted rel values with several relation types.
 */
export function parseNextLink(header: string | null): string | null {
  if (!header) return null;
  const re = /<([^>]*)>\s*((?:;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(re)) {
    const url = match[1];
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (url && rels.includes('next')) return url;
  }
  return null;
}

/** Same-origin absolute URLs are reduced to path + query so the API base URL applies. */
export function toRequestPath(next: string): string {
  try {
    const url = new URL(next, window.location.origin);
    if (url.origin === window.location.origin) return `${url.pathname}${url.search}`;
    return url.toString();
  } catch {
    return next;
  }
}

type Query = NonNullable<RequestOptions['query']>;

function sourceRequest(source: ListingsSource): { path: string; query: Query } {
  switch (source.kind) {
    case 'all':
      return { path: '/listings', query: {} };
    case 'recent':
      return { path: '/listings/recent', query: {} };
    case 'self':
      return { path: '/listings/self', query: {} };
    case 'category':
      return { path: `/listings/${encodeURIComponent(source.category)}`, query: {} };
    case 'saved':
      return { path: '/listings/saved', query: {} };
    case 'movingOut':
      return { path: '/listings/moving-out', query: { sellerId: source.sellerId } };
    case 'filters':
      return { path: '/listings/filters', query: filterQuery(source) };
    case 'search':
      return { path: '/listings/search', query: { query: source.query, ...filterQuery(source) } };
  }
}

function filterQuery(f: SellingFilters): Query {
  return {
    categories: f.categories,
    priceMin: f.priceMin,
    priceMax: f.priceMax,
    conditions: f.conditions && f.conditions.length > 0 ? f.conditions : undefined,
    courseCode: f.courseCode || undefined,
    isbn: f.isbn || undefined,
    sort: f.sort,
    free: f.free ? 'true' : undefined,
  };
}

/** One page of a list: the first one from the source, later ones from the previous `Link`. */
export async function fetchListingsPage(
  source: ListingsSource,
  cursorUrl: string | null,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<ListingsPage> {
  const limit = Math.min(options.limit ?? LIMITS.pageDefault, LIMITS.pageMax);
  let path: string;
  let query: Query | undefined;
  if (cursorUrl) {
    path = toRequestPath(cursorUrl);
  } else {
    const first = sourceRequest(source);
    path = first.path;
    query = { ...first.query, limit };
  }
  const { data, response } = await apiRequestWithResponse<unknown>(path, { query, signal: options.signal });
  const items = Array.isArray(data) ? (data as Listing[]) : [];
  return { items, next: parseNextLink(response.headers.get('Link')) };
}

export function getListing(id: number, signal?: AbortSignal): Promise<Listing> {
  return api.get<Listing>(`/listing/${id}`, { signal });
}

/** PUT /listings/sold/{id}: toggles sold and answers the listing. */
export function toggleListingSold(id: number): Promise<Listing> {
  return api.put<Listing>(`/listings/sold/${id}`);
}

export async function deleteListing(id: number): Promise<void> {
  await api.delete<unknown>(`/listing/${id}`);
}

export interface NewListingFields {
  name: string;
  category: Category;
  description: string;
  /** Dollars as typed ("12.50"): the API takes the price as a string. */
  price: string;
  /** Photos in order (the first is the cover), at most 8: repeated `image` parts. */
  images?: readonly Blob[];
  condition?: Condition | null;
  courseCode?: string | null;
  isbn?: string | null;
  /** features.md §H: a free item (no price) and how many hours claims collect. */
  free?: boolean;
  claimWindowHours?: number | null;
}

/** POST /listing (multipart). Answers the server's reply text ('New listing created' on success). */
export async function createListing(fields: NewListingFields): Promise<string> {
  const form = toFormData({
    // Before the price: the server checks the fields as soon as a photo starts.
    free: fields.free ? 'true' : null,
    claimWindowHours: fields.free ? (fields.claimWindowHours ?? null) : null,
    name: fields.name,
    category: fields.category,
    description: fields.description,
    price: fields.free ? null : fields.price,
    condition: fields.condition || null,
    courseCode: fields.courseCode || null,
    isbn: fields.isbn || null,
  });
  for (const [i, image] of (fields.images ?? []).entries())
    form.append('image', image, image instanceof File ? image.name : `photo-${i + 1}.jpg`);
  const reply = await api.upload<unknown>('/listing', form, { timeoutMs: 60_000 });
  if (typeof reply === 'string') return reply.trim();
  if (typeof reply === 'object' && reply !== null) {
    const message = (reply as { message?: unknown }).message;
    if (typeof message === 'string') return message.trim();
  }
  return '';
}

/** PATCH /listing/{id}: the changed fields (null clears condition, course code or ISBN). */
export interface ListingEdit {
  name?: string;
  category?: Category;
  description?: string;
  price?: string;
  condition?: Condition | null;
  courseCode?: string | null;
  isbn?: string | null;
}

export function editListing(id: number, edit: ListingEdit): Promise<Listing> {
  return api.patch<Listing>(`/listing/${id}`, edit);
}

export function addListingPhoto(id: number, image: Blob): Promise<Listing> {
  const form = new FormData();
  form.append('image', image, image instanceof File ? image.name : 'photo.jpg');
  return api.upload<Listing>(`/listing/${id}/photos`, form, { timeoutMs: 60_000 });
}

export function removeListingPhoto(id: number, photoId: number): Promise<Listing> {
  return api.delete<Listing>(`/listing/${id}/photos/${photoId}`);
}

export function reorderListingPhotos(id: number, photoIds: readonly number[]): Promise<Listing> {
  return api.put<Listing>(`/listing/${id}/photos/order`, { photoIds });
}

/** PUT or DELETE /listings/{id}/save: answers the new state. */
export function setListingSaved(id: number, saved: boolean): Promise<{ id: number; savedByMe: boolean }> {
  return saved
    ? api.put<{ id: number; savedByMe: boolean }>(`/listings/${id}/save`)
    : api.delete<{ id: number; savedByMe: boolean }>(`/listings/${id}/save`);
}
