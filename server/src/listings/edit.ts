import {
  CLAIMS_LIMITS,
  CLAIMS_MESSAGES,
  SELLING_MESSAGES,
  claimWindowHoursSchema,
  conditionApplies,
  createListingSchema,
  listingExtrasSchema,
  textbookFieldsApply,
  type Category,
} from '@campus/contract';
import { badRequest, parseOr400 } from '../http/errors.js';
import type { ListingRow } from './store.js';

const EDITABLE = new Set(['name', 'description', 'category', 'price', 'condition', 'courseCode', 'isbn']);

/** Condition only where it applies; course code and ISBN only on books (features.md §B). */
export function checkExtras(
  category: Category,
  condition: string | null,
  courseCode: string | null,
  isbn: string | null,
): void {
  if (condition !== null && !conditionApplies(category))
    throw badRequest(SELLING_MESSAGES.conditionNotApplicable);
  if ((courseCode !== null || isbn !== null) && !textbookFieldsApply(category))
    throw badRequest(SELLING_MESSAGES.textbookOnly);
}

/** A price field a free item may carry: absent, empty, or some spelling of zero. */
const noPrice = (price: string | undefined) =>
  price === undefined || price.trim() === '' || Number(price.trim()) === 0;

/**
 * `free` and `claimWindowHours` of the create form (features.md §H): a free item's price is 0 and
 * its claim window 1–72 hours (default 12); a priced item keeps the seed's rule that a price of 0
 * counts as missing, and has no claim window.
 */
function parseFree(fields: Record<string, string>): { free: boolean; claimWindowHours: number | null } {
  const flag = fields.free?.trim().toLowerCase();
  if (flag !== undefined && flag !== '' && flag !== 'true' && flag !== 'false')
    throw badRequest('free must be true or false');
  const free = flag === 'true';
  const window = fields.claimWindowHours?.trim();
  if (!free) {
    if (window !== undefined && window !== '') throw badRequest(CLAIMS_MESSAGES.windowOnlyFree);
    return { free, claimWindowHours: null };
  }
  if (!noPrice(fields.price)) throw badRequest(CLAIMS_MESSAGES.freeWithPrice);
  const hours =
    window === undefined || window === ''
      ? CLAIMS_LIMITS.claimWindowHoursDefault
      : parseOr400(claimWindowHoursSchema, window);
  return { free, claimWindowHours: hours };
}

/** A create form's fields, parsed: a missing field is the same as an empty one (spec §7's message). */
export function parseCreate(fields: Record<string, string>) {
  const { condition, courseCode, isbn, free: _free, claimWindowHours: _window, ...base } = fields;
  const freeItem = parseFree(fields);
  const parsed = parseOr400(createListingSchema, {
    name: '',
    category: '',
    description: '',
    price: '',
    ...base,
    // A free item's price is checked by parseFree; the shared rules check the rest.
    ...(freeItem.free ? { price: '1' } : {}),
  });
  const input = freeItem.free ? { ...parsed, price: 0 } : parsed;
  const extras = parseOr400(listingExtrasSchema, { condition, courseCode, isbn });
  checkExtras(input.category, extras.condition ?? null, extras.courseCode ?? null, extras.isbn ?? null);
  return { input, extras, claimWindowHours: freeItem.claimWindowHours };
}

/** What an edit sets: every editable column, as the listing would become. */
export interface ListingEdit {
  name: string;
  description: string;
  category: Category;
  /** Cents. */
  price: number;
  condition: string | null;
  courseCode: string | null;
  isbn: string | null;
}

/**
 * A PATCH body applied to the listing as it is: any of the editable fields, validated exactly like
 * create on the listing as it would become. Null or '' clears condition, courseCode and isbn.
 */
export function parseEdit(current: ListingRow, body: unknown): ListingEdit {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest(SELLING_MESSAGES.editEmpty);
  const patch = body as Record<string, unknown>;
  const keys = Object.keys(patch);
  if (keys.length === 0) throw badRequest(SELLING_MESSAGES.editEmpty);
  if (keys.some((k) => !EDITABLE.has(k))) throw badRequest(SELLING_MESSAGES.editUnknownField);
  const text = (key: string, fallback: string): string => {
    const v = patch[key];
    if (v === undefined) return fallback;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    return '';
  };
  // A free item stays free (its claims and pickup are at price 0); a priced one cannot become free.
  const free = current.price_cents === 0;
  if (free && patch.price !== undefined && !noPrice(text('price', '')))
    throw badRequest(CLAIMS_MESSAGES.freeStaysFree);
  const parsed = parseOr400(createListingSchema, {
    name: text('name', current.name),
    description: text('description', current.description),
    category: text('category', current.category),
    price: free ? '1' : text('price', (current.price_cents / 100).toFixed(2)),
  });
  const base = free ? { ...parsed, price: 0 } : parsed;
  const extras = parseOr400(listingExtrasSchema, {
    condition: patch.condition,
    courseCode: patch.courseCode,
    isbn: patch.isbn,
  });
  const condition = extras.condition === undefined ? current.condition : extras.condition;
  let courseCode = extras.courseCode === undefined ? current.course_code : extras.courseCode;
  let isbn = extras.isbn === undefined ? current.isbn : extras.isbn;
  // Moving a book to another category drops the textbook fields it no longer has room for,
  // unless the same request sets them (then the mismatch is refused below).
  if (!textbookFieldsApply(base.category) && extras.courseCode === undefined) courseCode = null;
  if (!textbookFieldsApply(base.category) && extras.isbn === undefined) isbn = null;
  const finalCondition =
    !conditionApplies(base.category) && extras.condition === undefined ? null : condition;
  checkExtras(base.category, finalCondition, courseCode, isbn);
  return { ...base, condition: finalCondition, courseCode, isbn };
}
