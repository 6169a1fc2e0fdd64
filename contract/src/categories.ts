/** Listing categories as stored and sent over the API (spec §3). */
export const CATEGORIES = [
  'BOOKS',
  'ELECTRONICS',
  'LIFESTYLE',
  'EVENTS',
  'SERVICES',
  'CLOTHING',
  'OTHER',
] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

/**
 * The one name of each category, on every screen: filters, tiles, breadcrumbs, forms (the
 * spec's tiles said "Dorm Essentials" where filters said "Lifestyle"; docs/decisions.md).
 */
export const CATEGORY_LABELS: Record<Category, string> = {
  BOOKS: 'Books',
  ELECTRONICS: 'Electronics',
  LIFESTYLE: 'Dorm Essentials',
  EVENTS: 'Events and Sports',
  SERVICES: 'Services',
  CLOTHING: 'Clothing',
  OTHER: 'Others',
};

/** Dashboard / landing tiles in the spec's order (spec §2), named by CATEGORY_LABELS. */
export const CATEGORY_TILES: ReadonlyArray<{ title: string; category: Category }> = (
  ['LIFESTYLE', 'BOOKS', 'ELECTRONICS', 'EVENTS', 'CLOTHING', 'SERVICES', 'OTHER'] as const
).map((category) => ({ title: CATEGORY_LABELS[category], category }));

/**
 * Categories offered by the add-listing form. The spec's form omits EVENTS while tiles and
 * filters show it; we offer it too so the "Events and Sports" tile can ever be filled
 * (docs/decisions.md).
 */
export const FORM_CATEGORIES: readonly Category[] = [
  'BOOKS',
  'LIFESTYLE',
  'CLOTHING',
  'ELECTRONICS',
  'EVENTS',
  'SERVICES',
  'OTHER',
];
