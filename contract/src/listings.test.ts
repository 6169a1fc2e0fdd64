import { describe, expect, it } from 'vitest';
import { createListingSchema, listingFormSchema } from './listings.js';
import { MESSAGES } from './messages.js';
import { SELLING_MESSAGES } from './selling-rules.js';

const filled = { name: 'Desk lamp', category: 'LIFESTYLE', description: 'Works well', price: '12.50' };

/** The first message for each field, as the form shows them. */
function formErrors(fields: Record<string, unknown>): Record<string, string> {
  const result = listingFormSchema.safeParse(fields);
  const found: Record<string, string> = {};
  if (result.success) return found;
  for (const issue of result.error.issues) found[String(issue.path[0])] ??= issue.message;
  return found;
}

function apiMessage(fields: Record<string, unknown>): string | undefined {
  const result = createListingSchema.safeParse(fields);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('the listing form and the API check a listing alike', () => {
  it('names each missing field on the form; the API says one sentence for all', () => {
    expect(formErrors({ name: ' ', category: '', description: '', price: '' })).toEqual({
      name: MESSAGES.listingNameRequired,
      category: MESSAGES.listingCategoryRequired,
      description: MESSAGES.listingDescriptionRequired,
      price: MESSAGES.listingPriceRequired,
    });
    expect(apiMessage({ ...filled, name: ' ' })).toBe(MESSAGES.listingRequiredFields);
    expect(apiMessage({ ...filled, price: '0' })).toBe(MESSAGES.listingRequiredFields);
  });

  it('reads a price the same way, with a number input holding zero as missing', () => {
    expect(formErrors({ ...filled, price: '1.234' })).toEqual({ price: MESSAGES.priceInvalid });
    expect(formErrors({ ...filled, price: '100000.01' })).toEqual({ price: MESSAGES.priceTooHigh });
    expect(formErrors({ ...filled, price: '0.000' })).toEqual({ price: MESSAGES.listingPriceRequired });
    expect(formErrors({ ...filled, price: '-0' })).toEqual({ price: MESSAGES.listingPriceRequired });
    expect(formErrors({ ...filled, price: '-5' })).toEqual({ price: MESSAGES.priceInvalid });
    expect(apiMessage({ ...filled, price: '1.234' })).toBe(MESSAGES.priceInvalid);
    expect(apiMessage({ ...filled, price: '100000.01' })).toBe(MESSAGES.priceTooHigh);
    expect(listingFormSchema.parse(filled).price).toBe(1250);
  });

  it('limits lengths and checks course codes and ISBNs with the API messages', () => {
    expect(formErrors({ ...filled, name: 'x'.repeat(121) })).toEqual({ name: MESSAGES.listingNameTooLong });
    expect(formErrors({ ...filled, description: 'x'.repeat(901) })).toEqual({
      description: MESSAGES.descriptionTooLong,
    });
    expect(formErrors({ ...filled, category: 'BOOKS', courseCode: 'calculus', isbn: '123' })).toEqual({
      courseCode: SELLING_MESSAGES.courseCodeInvalid,
      isbn: SELLING_MESSAGES.isbnInvalid,
    });
    const book = listingFormSchema.parse({ ...filled, category: 'BOOKS', courseCode: 'cse 232', isbn: '' });
    expect(book).toMatchObject({ courseCode: 'CSE232', isbn: null });
  });
});
