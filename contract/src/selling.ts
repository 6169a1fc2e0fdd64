import { z } from './zod.js';
import { CATEGORIES, type Category } from './categories.js';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';
import { readPrice } from './money.js';
import {
  CONDITIONS,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type Condition,
  isCondition,
  normalizeCourseCode,
  normalizeIsbn,
} from './selling-rules.js';

/** Section B's schemas (the rules without Zod are in selling-rules.ts). */

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
