import {
  MESSAGES,
  SELLING_MESSAGES,
  conditionApplies,
  createListingSchema,
  listingExtrasSchema,
  textbookFieldsApply,
  type Category,
  type Listing,
} from '@campus/contract';
import type { Principal } from '../context.js';
import { badRequest, notFound, parseOr400 } from '../http/errors.js';
import type { ListingsService } from './service.js';

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

/**
 * PATCH /listing/{id}: any of the editable fields, validated exactly like create on the listing
 * as it would become. Null or '' clears condition, courseCode and isbn. Lowering the price of an
 * unsold listing records a price drop (listing_price_drops) for the notifications module.
 */
export async function editListing(
  service: ListingsService,
  principal: Principal,
  id: number,
  body: unknown,
): Promise<Listing> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest(SELLING_MESSAGES.editEmpty);
  const patch = body as Record<string, unknown>;
  const keys = Object.keys(patch);
  if (keys.length === 0) throw badRequest(SELLING_MESSAGES.editEmpty);
  if (keys.some((k) => !EDITABLE.has(k))) throw badRequest(SELLING_MESSAGES.editUnknownField);
  const current = await service.ownedRow(principal, id);
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
  await service.checkWrite(principal, base, 'edited');
  // Only edits that would be saved count: a refused one costs no matching.
  await service.takeEdit(principal);

  const now = service.clock();
  const row = await service.database.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('listings')
      .set({
        name: base.name,
        description: base.description,
        category: base.category,
        price_cents: base.price,
        condition: finalCondition,
        course_code: courseCode,
        isbn,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('seller_id', '=', principal.userId)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFound(MESSAGES.listingNotFound);
    if (updated.is_sold === 0 && base.price < current.price_cents) {
      await trx
        .insertInto('listing_price_drops')
        .values({
          listing_id: id,
          old_price_cents: current.price_cents,
          new_price_cents: base.price,
          created_at: now,
        })
        .execute();
      for (const hook of service.onPriceDrop) await hook(trx, updated, current.price_cents);
    }
    for (const hook of service.inWrite) await hook(trx, updated, 'edited');
    return updated;
  });
  await service.written(row);
  return service.get(id);
}
