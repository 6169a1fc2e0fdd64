import {
  SELLING_MESSAGES,
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

/** A create form's fields, parsed: a missing field is the same as an empty one (spec §7's message). */
export function parseCreate(fields: Record<string, string>) {
  const { condition, courseCode, isbn, ...base } = fields;
  const input = parseOr400(createListingSchema, {
    name: '',
    category: '',
    description: '',
    price: '',
    ...base,
  });
  const extras = parseOr400(listingExtrasSchema, { condition, courseCode, isbn });
  checkExtras(input.category, extras.condition ?? null, extras.courseCode ?? null, extras.isbn ?? null);
  return { input, extras };
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
  const base = parseOr400(createListingSchema, {
    name: text('name', current.name),
    description: text('description', current.description),
    category: text('category', current.category),
    price: text('price', (current.price_cents / 100).toFixed(2)),
  });
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
