import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  CATEGORY_LABELS,
  CONDITION_LABELS,
  CONDITIONS,
  conditionApplies,
  dollarsToCents,
  FORM_CATEGORIES,
  isCategory,
  isCondition,
  LIMITS,
  MESSAGES,
  normalizeCourseCode,
  normalizeIsbn,
  SELLING_MESSAGES,
  textbookFieldsApply,
  type Category,
  type Condition,
} from '@campus/contract';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { AlertIcon, ChevronDownIcon } from '../../../ui/icons';
import { inputClasses, TextField } from '../../../ui/TextField';
import { toast } from '../../../ui/toast';
import { PhotoPicker, type PhotoItem } from './PhotoPicker';

const DESCRIPTION_MAX_HEIGHT = 240;

type FieldName = 'name' | 'price' | 'category' | 'description' | 'courseCode' | 'isbn';
type Errors = Partial<Record<FieldName, string>>;

/** Spec §8: server message, else string body, else error message, else the generic upload error. */
export function uploadErrorText(error: unknown): string {
  // unreachable server (offline, timeout) is not a form problem: say what happened.
  if (error instanceof ApiError && error.isNetworkError) return MESSAGES.listingOffline;
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (typeof error.body === 'string' && error.body.trim() && !error.body.trim().startsWith('<')) {
      return error.body.trim();
    }
    if (error.status === 413) return MESSAGES.imageTooLarge;
  }
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.listingUploadError;
}

/** Pasted or dropped text (not typing) that went past the limit was cut: say so. */
function limitText(e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>, max: number) {
  const value = e.target.value;
  if (value.length <= max) return { value, cut: false };
  const inputType = (e.nativeEvent as InputEvent).inputType ?? '';
  // Typing adds one character at a time; more than one over the limit was pasted or dropped.
  return { value: value.slice(0, max), cut: inputType.startsWith('insertFrom') || value.length - max > 1 };
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-red-700">
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

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

function SelectField({
  id,
  label,
  name,
  value,
  onChange,
  error,
  placeholder,
  options,
  hint,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder: { label: string; disabled: boolean };
  options: readonly { value: string; label: string }[];
  hint?: string;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={cx(hint && `${id}-hint`, error && `${id}-error`) || undefined}
          className={cx(
            inputClasses,
            'appearance-none pr-10',
            value === '' && 'text-slate-500',
            error
              ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
          )}
        >
          <option value="" disabled={placeholder.disabled}>
            {placeholder.label}
          </option>
          {options.map((o) => (
            <option key={o.value} value={o.value} className="text-slate-900">
              {o.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon
          size={18}
          className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500"
        />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

const CATEGORY_OPTIONS = FORM_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }));
const CONDITION_OPTIONS = CONDITIONS.map((c) => ({ value: c, label: CONDITION_LABELS[c] }));

/**
 * The add and edit form (spec §5, features.md §B): name, price, category, then only the fields
 * that apply — condition (not for services and events), course code and ISBN (books) — the
 * description and up to 8 photos. Validates like the server before sending; `onSubmit` does the
 * calls and throws to report a failure.
 */
export function ListingForm({
  initial,
  submitLabel,
  onSubmit,
  busyLabel,
}: {
  initial: ListingFormValues;
  submitLabel: string;
  /** What the submit button says while `onSubmit` runs (phase text from the page). */
  busyLabel: string | null;
  onSubmit: (values: ListingFormResult) => Promise<void>;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const ids = { category: useId(), condition: useId(), description: useId() };
  const [values, setValues] = useState<ListingFormValues>(initial);
  const [cut, setCut] = useState({ name: false, description: false });
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = submitting || busyLabel !== null;
  const { name, price, category, description } = values;
  const showCondition = category !== '' && conditionApplies(category);
  const showTextbook = category !== '' && textbookFieldsApply(category);

  const set = <K extends keyof ListingFormValues>(key: K, value: ListingFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors((prev) => (prev[key as FieldName] ? { ...prev, [key]: undefined } : prev));
  };

  // Description grows with its text up to 240 px, then scrolls.
  useLayoutEffect(() => {
    const el = descriptionRef.current;
    if (!el) return;
    el.style.height = 'auto';
    const next = Math.min(el.scrollHeight + 2, DESCRIPTION_MAX_HEIGHT);
    el.style.height = `${next}px`;
    el.style.overflowY = el.scrollHeight + 2 > DESCRIPTION_MAX_HEIGHT ? 'auto' : 'hidden';
  }, [description]);

  // Object URLs of chosen files are released when the form goes away.
  const photosRef = useRef(values.photos);
  photosRef.current = values.photos;
  useEffect(
    () => () => {
      for (const p of photosRef.current) if (p.kind === 'new') URL.revokeObjectURL(p.url);
    },
    [],
  );

  /** Field errors, and whether a required field is missing (spec §5: price 0 counts as missing). */
  function validate(): { errors: Errors; missingRequired: boolean } {
    const found: Errors = {};
    if (!name.trim()) found.name = MESSAGES.listingNameRequired;
    if (!category || !isCategory(category)) found.category = MESSAGES.listingCategoryRequired;
    if (!description.trim()) found.description = MESSAGES.listingDescriptionRequired;
    const numeric = Number(price);
    if (price.trim() === '' || !Number.isFinite(numeric) || numeric === 0) {
      found.price = MESSAGES.listingPriceRequired;
    }
    const missingRequired = Object.keys(found).length > 0;
    if (!found.price) {
      const cents = dollarsToCents(price);
      if (cents === null) found.price = MESSAGES.priceInvalid;
      else if (cents > LIMITS.priceMaxDollars * 100) found.price = MESSAGES.priceTooHigh;
    }
    if (description.length > LIMITS.descriptionMax) found.description = MESSAGES.descriptionTooLong;
    if (name.trim().length > LIMITS.listingNameMax) found.name = MESSAGES.listingNameTooLong;
    if (showTextbook && values.courseCode.trim() && !normalizeCourseCode(values.courseCode))
      found.courseCode = SELLING_MESSAGES.courseCodeInvalid;
    if (showTextbook && values.isbn.trim() && !normalizeIsbn(values.isbn))
      found.isbn = SELLING_MESSAGES.isbnInvalid;
    return { errors: found, missingRequired };
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const { errors: found, missingRequired } = validate();
    setErrors(found);
    const order = ['name', 'price', 'category', 'courseCode', 'isbn', 'description'] as const;
    const firstError = order.find((f) => found[f]);
    if (firstError) {
      toast.error(
        missingRequired
          ? MESSAGES.listingRequiredFields
          : (found[firstError] ?? MESSAGES.listingRequiredFields),
      );
      formRef.current?.querySelector<HTMLElement>(`[name="${firstError}"]`)?.focus();
      return;
    }
    if (!isCategory(category)) return;
    setSubmitting(true);
    try {
      await onSubmit({
        name: name.trim(),
        price: price.trim(),
        category,
        description: description.trim(),
        condition: showCondition && values.condition ? values.condition : null,
        courseCode: showTextbook ? normalizeCourseCode(values.courseCode) : null,
        isbn: showTextbook ? normalizeIsbn(values.isbn) : null,
        photos: values.photos,
      });
    } catch (error) {
      console.error('Failed to save the listing', error);
      toast.error(uploadErrorText(error));
    } finally {
      setSubmitting(false);
    }
  }

  const descriptionCount = description.length;
  const nearLimit = descriptionCount >= LIMITS.descriptionMax - 50;

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="mt-8 space-y-6" aria-busy={busy}>
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={(e) => {
          const next = limitText(e, LIMITS.listingNameMax);
          set('name', next.value);
          setCut((prev) => ({ ...prev, name: next.cut }));
        }}
        placeholder="e.g. Intro to Psychology, 8th edition"
        autoComplete="off"
        hint={
          <span className="flex justify-between gap-3">
            <span aria-live="polite" className={cx(cut.name && 'font-semibold text-amber-800')}>
              {cut.name ? MESSAGES.listingNameCut(LIMITS.listingNameMax) : ''}
            </span>
            <span
              className={cx(
                'shrink-0 text-xs tabular-nums',
                name.length >= LIMITS.listingNameMax - 10 ? 'font-semibold text-amber-800' : 'text-slate-600',
              )}
            >
              {name.length}/{LIMITS.listingNameMax}
              <span className="sr-only"> characters</span>
            </span>
          </span>
        }
        error={errors.name}
        required
      />

      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
        <TextField
          label="Price"
          name="price"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={price}
          onChange={(e) => set('price', e.target.value)}
          placeholder="0.00"
          hint="In dollars, e.g. 12.50"
          error={errors.price}
          required
        />
        <SelectField
          id={ids.category}
          label="Category"
          name="category"
          value={category}
          onChange={(v) => set('category', isCategory(v) ? v : '')}
          error={errors.category}
          placeholder={{ label: 'Choose a Category', disabled: true }}
          options={CATEGORY_OPTIONS}
        />
      </div>

      {(showCondition || showTextbook) && (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
          {showCondition && (
            <SelectField
              id={ids.condition}
              label="Condition (optional)"
              name="condition"
              value={values.condition}
              onChange={(v) => set('condition', isCondition(v) ? v : '')}
              placeholder={{ label: 'Not specified', disabled: false }}
              options={CONDITION_OPTIONS}
            />
          )}
          {showTextbook && (
            <TextField
              label="Course code (optional)"
              name="courseCode"
              value={values.courseCode}
              onChange={(e) => set('courseCode', e.target.value)}
              placeholder="e.g. CSE 232"
              hint="Students taking the course find your book on its page."
              autoComplete="off"
              error={errors.courseCode}
            />
          )}
          {showTextbook && (
            <TextField
              label="ISBN (optional)"
              name="isbn"
              value={values.isbn}
              onChange={(e) => set('isbn', e.target.value)}
              placeholder="10 or 13 digits, on the back cover"
              inputMode="numeric"
              autoComplete="off"
              error={errors.isbn}
            />
          )}
        </div>
      )}

      <div className="space-y-1.5">
        <div className="flex items-baseline justify-between gap-3">
          <label htmlFor={ids.description} className="block text-sm font-medium text-slate-800">
            Description
          </label>
          <span
            id={`${ids.description}-count`}
            className={cx(
              'text-xs tabular-nums',
              nearLimit ? 'font-semibold text-amber-800' : 'text-slate-600',
            )}
          >
            {descriptionCount}/{LIMITS.descriptionMax}
            <span className="sr-only"> characters</span>
          </span>
        </div>
        <textarea
          ref={descriptionRef}
          id={ids.description}
          name="description"
          rows={3}
          value={description}
          onChange={(e) => {
            const next = limitText(e, LIMITS.descriptionMax);
            set('description', next.value);
            setCut((prev) => ({ ...prev, description: next.cut }));
          }}
          placeholder="Edition or size, what's included, when you can meet…"
          required
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={cx(`${ids.description}-count`, errors.description && `${ids.description}-error`)}
          className={cx(
            inputClasses,
            'h-auto min-h-24 resize-none py-2.5 leading-relaxed',
            errors.description
              ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
          )}
        />
        <p aria-live="polite" className="text-sm font-semibold text-amber-800">
          {cut.description ? MESSAGES.listingDescriptionCut(LIMITS.descriptionMax) : ''}
        </p>
        <FieldError id={`${ids.description}-error`} message={errors.description} />
      </div>

      <PhotoPicker items={values.photos} onChange={(photos) => set('photos', photos)} disabled={busy} />

      <Button type="submit" size="lg" fullWidth loading={busy}>
        {busyLabel ?? submitLabel}
      </Button>
    </form>
  );
}
