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

/** Short label used in filters, breadcrumbs and forms ("OTHER" is shown as "Others"). */
export const CATEGORY_LABELS: Record<Category, string> = {
  BOOKS: 'Books',
  ELECTRONICS: 'Electronics',
  LIFESTYLE: 'Lifestyle',
  EVENTS: 'Events',
  SERVICES: 'Services',
  CLOTHING: 'Clothing',
  OTHER: 'Others',
};

/** Dashboard / landing tiles: the spec's tile names and the category each one opens (spec §2). */
export const CATEGORY_TILES: ReadonlyArray<{ title: string; category: Category }> = [
  { title: 'Dorm Essentials', category: 'LIFESTYLE' },
  { title: 'Books and Knowledge', category: 'BOOKS' },
  { title: 'Electronics', category: 'ELECTRONICS' },
  { title: 'Events and Sports', category: 'EVENTS' },
  { title: 'Fashion and Apparel', category: 'CLOTHING' },
  { title: 'Student Services', category: 'SERVICES' },
  { title: 'Others', category: 'OTHER' },
];

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
