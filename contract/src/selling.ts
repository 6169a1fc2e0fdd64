import { z } from './zod.js';
import { CATEGORIES, type Category } from './categories.js';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';
import { readPrice } from './money.js';
import type { ImageVariants } from './media.js';

/** Section B of features.md: edit, photos, condition, favourites, sorting, textbooks, saved searches, wanted. */

export const CONDITIONS = ['NEW', 'LIKE_NEW', 'GOOD', 'FAIR', 'FOR_PARTS'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const CONDITION_LABELS: Record<Condition, string> = {
  NEW: 'New',
  LIKE_NEW: 'Like new',
  GOOD: 'Good',
  FAIR: 'Fair',
  FOR_PARTS: 'For parts',
};
export const isCondition = (v: string): v is Condition => (CONDITIONS as readonly string[]).includes(v);

/** Categories a condition makes no sense for (features.md §B "Condition"). */
export const NO_CONDITION_CATEGORIES: readonly Category[] = ['SERVICES', 'EVENTS'];
/** Only books carry a course code and an ISBN. */
export const TEXTBOOK_CATEGORY: Category = 'BOOKS';
export const conditionApplies = (c: Category | string) => !NO_CONDITION_CATEGORIES.includes(c as Category);
export const textbookFieldsApply = (c: Category | string) => c === TEXTBOOK_CATEGORY;

export const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;
export type Sort = (typeof SORTS)[number];
export const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
};
export const isSort = (v: string): v is Sort => (SORTS as readonly string[]).includes(v);

export const SELLING_LIMITS = {
  photosMax: 8,
  savedSearchesMax: 20,
  wantedOpenMax: 10,
  wantedDays: 30,
  wantedTitleMax: 120,
  wantedDescriptionMax: 500,
  /** Listing edits per student per hour: each edit re-matches every saved search and wanted post. */
  editsPerHour: 30,
} as const;

export const SELLING_MESSAGES = {
  conditionInvalid: 'Condition must be one of New, Like new, Good, Fair or For parts',
  conditionNotApplicable: 'Services and events have no condition',
  textbookOnly: 'Only books can have a course code or an ISBN',
  courseCodeInvalid: 'Enter the course code as letters and a number, like CSE 232',
  isbnInvalid: 'That ISBN is not valid: check the digits (ISBN-10 or ISBN-13)',
  editEmpty: 'Change at least one field: name, description, category, price, condition, courseCode or isbn',
  editUnknownField: 'Only name, description, category, price, condition, courseCode and isbn can be edited',
  listingUpdated: 'Listing updated',
  editsTooMany: `You can edit your listings at most ${SELLING_LIMITS.editsPerHour} times an hour. Please wait a while and try again.`,
  photosTooMany: `A listing can have at most ${8} photos`,
  photoRequired: 'Attach a JPG/JPEG photo',
  // The form was checked when its first photo arrived; name, category, description and price go first.
  fieldsBeforePhotos: 'Send name, category, description and price before the photos, each once',
  photoNotFound: 'This photo does not exist or was removed',
  photoIdInvalid: 'The photo id must be a positive whole number',
  photoOrderInvalid: 'Send photoIds: every photo of this listing exactly once, in the new order',
  saveOwnListing: 'You cannot save your own listing',
  sortInvalid: 'Sort must be one of relevance, newest, price_asc or price_desc',
  savedSearchesFull: `You can keep at most ${20} saved searches. Delete one to add another.`,
  savedSearchEmpty:
    'Choose at least one thing to search for: words, a category, a price, a condition or a course',
  savedSearchNotFound: 'This saved search does not exist',
  savedSearchIdInvalid: 'The saved search id must be a positive whole number',
  wantedFull: `You can have at most ${10} open wanted posts. Delete one to add another.`,
  wantedTitleRequired: 'Say what you are looking for',
  wantedTitleTooLong: 'The title can be at most 120 characters',
  wantedDescriptionTooLong: 'The description can be at most 500 characters',
  wantedNotFound: 'This wanted post does not exist',
  wantedNotYours: 'Only the student who posted it can delete this wanted post',
  wantedIdInvalid: 'The wanted post id must be a positive whole number',
  // Web
  savedEmpty: 'Nothing saved yet. Tap the heart on any listing to keep it here.',
  wantedEmpty: 'Nobody is looking for anything here yet. Post what you need and sellers will find you.',
  wantedMineEmpty: 'You have no open wanted posts. Tell sellers what you are looking for.',
  courseEmpty: 'No books for this course yet. Post yours, or add a wanted post so sellers know.',
  savedSearchesEmpty: 'No saved searches. Search for something and save it to hear about new matches.',
  saveFailed: 'Could not update your saved listings. Please try again.',
  lookingFor: (n: number) =>
    n === 1 ? '1 student is looking for this' : `${n} students are looking for this`,
} as const;

/** A photo of a listing; the first of `photos` is the cover. */
export interface ListingPhoto {
  id: number;
  url: string;
  thumbnailUrl: string;
  /** Responsive AVIF/WebP copies of the photo (contract media.ts). */
  variants: ImageVariants | null;
}

/**
 * Normalises a course code: letters then a number, spaces, dots and dashes dropped, upper case
 * ("cse 232" -> "CSE232", "MATH-101H" -> "MATH101H"). Null when it is not one.
 */
export function normalizeCourseCode(input: string): string | null {
  const compact = input
    .trim()
    .toUpperCase()
    .replace(/[\s.\-_]+/g, '');
  return /^[A-Z]{2,8}\d{2,4}[A-Z]?$/.test(compact) ? compact : null;
}

/** ISBN-10 or ISBN-13 (hyphens and spaces allowed) with a valid check digit, as ISBN-13; else null. */
export function normalizeIsbn(input: string): string | null {
  const s = input
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '');
  if (/^\d{9}[\dX]$/.test(s)) {
    let sum = 0;
    for (let i = 0; i < 10; i += 1) {
      const ch = s[i] as string;
      const v = ch === 'X' ? 10 : Number(ch);
      sum += v * (10 - i);
    }
    if (sum % 11 !== 0) return null;
    const body = `978${s.slice(0, 9)}`;
    return body + isbn13Check(body);
  }
  if (/^97[89]\d{10}$/.test(s)) {
    return isbn13Check(s.slice(0, 12)) === s[12] ? s : null;
  }
  return null;
}

function isbn13Check(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

const optionalText = (v: unknown) => (v === undefined ? undefined : v === null ? null : String(v).trim());

/** `condition`: one of CONDITIONS, or empty/null for none. */
export const conditionField = z.preprocess(
  optionalText,
  z
    .union([z.null(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const upper = v.toUpperCase();
      if (!isCondition(upper)) {
        ctx.addIssue({ code: 'custom', message: SELLING_MESSAGES.conditionInvalid });
        return z.NEVER;
      }
      return upper;
    }),
);

export const courseCodeField = z.preprocess(
  optionalText,
  z
    .union([z.null(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const code = normalizeCourseCode(v);
      if (!code) {
        ctx.addIssue({ code: 'custom', message: SELLING_MESSAGES.courseCodeInvalid });
        return z.NEVER;
      }
      return code;
    }),
);

export const isbnField = z.preprocess(
  optionalText,
  z
    .union([z.null(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const isbn = normalizeIsbn(v);
      if (!isbn) {
        ctx.addIssue({ code: 'custom', message: SELLING_MESSAGES.isbnInvalid });
        return z.NEVER;
      }
      return isbn;
    }),
);

/** The fields create and edit add to a listing (absent = unchanged on edit, null/empty = none). */
export const listingExtrasSchema = z.object({
  condition: conditionField,
  courseCode: courseCodeField,
  isbn: isbnField,
});
export type ListingExtras = z.output<typeof listingExtrasSchema>;

/** A price typed as dollars ("12", "12.5") into cents; the optional variant for filters. */
const dollars = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : String(v).trim()),
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        const price = readPrice(v);
        if (price.ok) return price.cents;
        // A filter or a budget of $0 is allowed.
        if (price.problem === 'zero') return 0;
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }),
  );

const categoryList = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
  z.array(
    z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .pipe(z.enum(CATEGORIES, { error: MESSAGES.categoryInvalid })),
  ),
);

const conditionList = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
  z.array(
    z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .pipe(z.enum(CONDITIONS, { error: SELLING_MESSAGES.conditionInvalid })),
  ),
);

export const savedSearchSchema = z
  .object({
    query: z.preprocess(
      (v) => (v === undefined || v === null ? '' : v),
      z
        .string()
        .transform((q) => q.trim().replace(/\s+/g, ' '))
        .pipe(z.string().max(100, MESSAGES.searchQueryTooLong)),
    ),
    categories: categoryList,
    priceMin: dollars(MESSAGES.invalidPriceFilter),
    priceMax: dollars(MESSAGES.invalidPriceFilter),
    conditions: conditionList,
    courseCode: courseCodeField,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.priceMin !== undefined && v.priceMax !== undefined && v.priceMin > v.priceMax)
      ctx.addIssue({ code: 'custom', message: MESSAGES.invalidPriceFilter });
  });
export type SavedSearchInput = z.output<typeof savedSearchSchema>;

export interface SavedSearch {
  id: number;
  query: string;
  categories: Category[];
  priceMin: number | null;
  priceMax: number | null;
  conditions: Condition[];
  courseCode: string | null;
  createdAt: string;
}

export const wantedSchema = z
  .object({
    title: z.preprocess(
      (v) => (v === undefined || v === null ? '' : v),
      z
        .string()
        .trim()
        .min(1, SELLING_MESSAGES.wantedTitleRequired)
        .max(SELLING_LIMITS.wantedTitleMax, SELLING_MESSAGES.wantedTitleTooLong),
    ),
    description: z.preprocess(
      (v) => (v === undefined || v === null ? '' : v),
      z.string().trim().max(SELLING_LIMITS.wantedDescriptionMax, SELLING_MESSAGES.wantedDescriptionTooLong),
    ),
    category: z.preprocess(
      (v) => (v === undefined || v === null ? '' : v),
      z
        .string()
        .trim()
        .min(1, MESSAGES.listingCategoryRequired)
        .transform((c) => c.toUpperCase())
        .pipe(z.enum(CATEGORIES, { error: MESSAGES.categoryInvalid })),
    ),
    maxPrice: dollars(MESSAGES.priceInvalid),
    courseCode: courseCodeField,
  })
  .strict();
export type WantedInput = z.output<typeof wantedSchema>;

export interface WantedPost {
  id: number;
  title: string;
  description: string;
  category: Category;
  maxPrice: number | null;
  courseCode: string | null;
  author: { id: number; firstName: string; lastName: string };
  createdAt: string;
  expiresAt: string;
  isOpen: boolean;
}

// ---- OpenAPI descriptions (server/src/http/openapi.ts); the routes parse with the schemas above.

const nullableText = z.string().nullable().optional();

export const listingExtrasDoc = z.object({
  condition: z.enum(CONDITIONS).optional().describe('Not for SERVICES or EVENTS'),
  courseCode: z.string().optional().describe('BOOKS only; "CSE 232" is stored as CSE232'),
  isbn: z.string().optional().describe('BOOKS only; ISBN-10 or -13 with a valid check digit'),
});

export const editListingDoc = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  category: z.enum(CATEGORIES).optional(),
  price: z.union([z.number(), z.string()]).optional().describe('Dollars, at most 2 decimals'),
  condition: nullableText.describe('null or "" clears it'),
  courseCode: nullableText.describe('null or "" clears it'),
  isbn: nullableText.describe('null or "" clears it'),
});

export const photoOrderDoc = z.object({ photoIds: z.array(z.number().int()) });

export const saveResponse = z.object({ id: z.number().int(), savedByMe: z.boolean() });

export const savedSearchDoc = z.object({
  query: z.string().max(100).optional(),
  categories: z.array(z.enum(CATEGORIES)).optional(),
  priceMin: z.union([z.number(), z.string()]).optional(),
  priceMax: z.union([z.number(), z.string()]).optional(),
  conditions: z.array(z.enum(CONDITIONS)).optional(),
  courseCode: z.string().optional(),
});

export const savedSearchResponse = z.object({
  id: z.number().int(),
  query: z.string(),
  categories: z.array(z.enum(CATEGORIES)),
  priceMin: z.number().nullable(),
  priceMax: z.number().nullable(),
  conditions: z.array(z.enum(CONDITIONS)),
  courseCode: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<SavedSearch>;

export const wantedDoc = z.object({
  title: z.string().max(SELLING_LIMITS.wantedTitleMax),
  description: z.string().max(SELLING_LIMITS.wantedDescriptionMax).optional(),
  category: z.enum(CATEGORIES),
  maxPrice: z.union([z.number(), z.string()]).optional().describe('Dollars'),
  courseCode: z.string().optional().describe('BOOKS only'),
});

export const wantedResponse = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: z.enum(CATEGORIES),
  maxPrice: z.number().nullable(),
  courseCode: z.string().nullable(),
  author: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
  isOpen: z.boolean(),
}) satisfies z.ZodType<WantedPost>;

export const wantedQueryDoc = z.object({
  limit: z.number().int().min(1).max(LIMITS.pageMax).optional(),
  cursor: z.string().optional(),
  categories: z.union([z.enum(CATEGORIES), z.array(z.enum(CATEGORIES))]).optional(),
});
