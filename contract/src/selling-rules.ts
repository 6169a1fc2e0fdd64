import type { Category } from './categories.js';
import type { ImageVariants } from './media.js';

/**
 * The Zod-free half of section B (conditions, sorts, limits, messages, course code and ISBN
 * rules): pages that only show a listing read these, and a module holding a schema would bring
 * Zod into their chunk (selling.ts has the schemas). Section B of features.md.
 */
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
