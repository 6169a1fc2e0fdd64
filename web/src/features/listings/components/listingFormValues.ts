import {
  CLAIMS_LIMITS,
  dollarsToCents,
  isCategory,
  isCondition,
  LIMITS,
  LISTING_FORM_MISSING,
  listingFormSchema,
  MESSAGES,
  normalizeCourseCode,
  type Category,
  type Condition,
} from '@campus/contract';
import type { PhotoItem } from './PhotoPicker';

export type FieldName = 'name' | 'price' | 'category' | 'description' | 'courseCode' | 'isbn';
export type FieldErrors = Partial<Record<FieldName, string>>;

/** The order the form shows its fields in: the first with an error gets the focus. */
export const FIELD_ORDER = ['name', 'price', 'category', 'courseCode', 'isbn', 'description'] as const;

/** What the form holds; `category` is '' until chosen, `condition` '' for none. */
export interface ListingFormValues {
  name: string;
  price: string;
  category: Category | '';
  description: string;
  condition: Condition | '';
  courseCode: string;
  isbn: string;
  photos: PhotoItem[];
  /** features.md §H: given away (no price), claims collecting for `claimWindowHours`. */
  free: boolean;
  claimWindowHours: string;
}

/** The checked values handed to the page on submit: course code and ISBN normalised. */
export interface ListingFormResult {
  name: string;
  price: string;
  category: Category;
  description: string;
  /** Only where it applies (not for services and events). */
  condition: Condition | null;
  /** Only for books. */
  courseCode: string | null;
  isbn: string | null;
  photos: PhotoItem[];
  free: boolean;
  /** Free items only. */
  claimWindowHours: number | null;
}

export const emptyListingForm: ListingFormValues = {
  name: '',
  price: '',
  category: '',
  description: '',
  condition: '',
  courseCode: '',
  isbn: '',
  photos: [],
  free: false,
  claimWindowHours: String(CLAIMS_LIMITS.claimWindowHoursDefault),
};

/** Pre-fill from a URL (`/addlisting?name=&category=&courseCode=&price=`, "I have this"). */
export function formValuesFromParams(params: URLSearchParams): ListingFormValues {
  const category = (params.get('category') ?? '').toUpperCase();
  const condition = (params.get('condition') ?? '').toUpperCase();
  return {
    ...emptyListingForm,
    name: (params.get('name') ?? '').slice(0, LIMITS.listingNameMax),
    price: dollarsToCents(params.get('price') ?? '') !== null ? (params.get('price') ?? '') : '',
    category: isCategory(category) ? category : '',
    condition: isCondition(condition) ? condition : '',
    courseCode: normalizeCourseCode(params.get('courseCode') ?? '') ?? '',
  };
}

export type ListingFormCheck =
  | { ok: true; result: ListingFormResult }
  | {
      ok: false;
      errors: FieldErrors;
      /** The first field with an error, in the order the form shows them. */
      first: FieldName;
      /** What the toast says: the one sentence for any missing field (spec §5), else the first error. */
      summary: string;
    };

/**
 * Checks the form with the contract's listing form schema (the API's rules and messages), sending
 * only the fields the chosen category shows.
 */
export function checkListingForm(
  values: ListingFormValues,
  shows: { condition: boolean; textbook: boolean },
): ListingFormCheck {
  const parsed = listingFormSchema.safeParse({
    name: values.name,
    // A free item has no price to check (features.md §H).
    price: values.free ? '1' : values.price,
    category: values.category,
    description: values.description,
    courseCode: shows.textbook ? values.courseCode : undefined,
    isbn: shows.textbook ? values.isbn : undefined,
  });
  if (parsed.success) {
    const data = parsed.data;
    return {
      ok: true,
      result: {
        name: data.name,
        price: values.free ? '' : values.price.trim(),
        category: data.category,
        description: data.description,
        condition: shows.condition && values.condition ? values.condition : null,
        courseCode: shows.textbook ? (data.courseCode ?? null) : null,
        isbn: shows.textbook ? (data.isbn ?? null) : null,
        photos: values.photos,
        free: values.free,
        claimWindowHours: values.free ? Number(values.claimWindowHours) : null,
      },
    };
  }
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = FIELD_ORDER.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  const missing = Object.entries(LISTING_FORM_MISSING).some(
    ([field, message]) => errors[field as FieldName] === message,
  );
  const first = FIELD_ORDER.find((f) => errors[f]) ?? 'name';
  return {
    ok: false,
    errors,
    first,
    summary: missing ? MESSAGES.listingRequiredFields : (errors[first] ?? MESSAGES.listingRequiredFields),
  };
}
