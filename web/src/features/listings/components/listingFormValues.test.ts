import { describe, expect, it } from 'vitest';
import { MESSAGES, SELLING_MESSAGES } from '@campus/contract';
import { checkListingForm, emptyListingForm } from './listingFormValues';

const shows = { condition: true, textbook: false };
const filled = {
  ...emptyListingForm,
  name: ' Lamp ',
  price: '12.5',
  category: 'LIFESTYLE' as const,
  description: 'Works',
};

describe('checking the listing form', () => {
  it('names each missing field and says the one sentence for them in the toast', () => {
    const check = checkListingForm(emptyListingForm, shows);
    expect(check).toMatchObject({
      ok: false,
      first: 'name',
      summary: MESSAGES.listingRequiredFields,
      errors: {
        name: MESSAGES.listingNameRequired,
        price: MESSAGES.listingPriceRequired,
        category: MESSAGES.listingCategoryRequired,
        description: MESSAGES.listingDescriptionRequired,
      },
    });
  });

  it('toasts the first wrong field when nothing is missing', () => {
    const check = checkListingForm({ ...filled, price: '1.234' }, shows);
    expect(check).toMatchObject({ ok: false, first: 'price', summary: MESSAGES.priceInvalid });
    const book = checkListingForm(
      { ...filled, category: 'BOOKS', isbn: '123' },
      { ...shows, textbook: true },
    );
    expect(book).toMatchObject({ ok: false, first: 'isbn', summary: SELLING_MESSAGES.isbnInvalid });
  });

  it('hands over trimmed values, the extras only where the category shows them', () => {
    const check = checkListingForm({ ...filled, courseCode: 'nonsense', condition: 'GOOD' }, shows);
    expect(check).toEqual({
      ok: true,
      result: {
        name: 'Lamp',
        price: '12.5',
        category: 'LIFESTYLE',
        description: 'Works',
        condition: 'GOOD',
        courseCode: null,
        isbn: null,
        photos: [],
        free: false,
        claimWindowHours: null,
      },
    });
  });

  it('hands over a free item without a price, with its claim window (features.md §H)', () => {
    const check = checkListingForm(
      {
        ...emptyListingForm,
        name: 'Couch',
        category: 'LIFESTYLE',
        description: 'Comfy',
        free: true,
        claimWindowHours: '24',
      },
      { condition: true, textbook: false },
    );
    expect(check).toMatchObject({ ok: true, result: { price: '', free: true, claimWindowHours: 24 } });
  });
});
