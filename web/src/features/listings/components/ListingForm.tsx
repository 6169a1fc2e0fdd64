import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  CATEGORY_LABELS,
  CONDITION_LABELS,
  CONDITIONS,
  conditionApplies,
  FORM_CATEGORIES,
  isCategory,
  isCondition,
  LIMITS,
  MESSAGES,
  textbookFieldsApply,
} from '@campus/contract';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { limitText, SelectField } from '../../../ui/forms';
import { TextField } from '../../../ui/TextField';
import { toast } from '../../../ui/toast';
import { DescriptionField } from './DescriptionField';
import {
  checkListingForm,
  type FieldErrors,
  type FieldName,
  type ListingFormResult,
  type ListingFormValues,
} from './listingFormValues';
import { FreeChoice } from './FreeChoice';
import { PhotoPicker } from './PhotoPicker';
import { PriceGuideHint } from '../../freshness/PriceGuideHint';

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

const CATEGORY_OPTIONS = FORM_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }));
const CONDITION_OPTIONS = CONDITIONS.map((c) => ({ value: c, label: CONDITION_LABELS[c] }));

/**
 * The add and edit form (spec §5, features.md §B): name, price, category, then only the fields
 * that apply — condition (not for services and events), course code and ISBN (books) — the
 * description and up to 8 photos. Checks with the contract's listing form schema (the API's rules
 * and messages) before sending; `onSubmit` does the calls and throws to report a failure.
 */
export function ListingForm({
  initial,
  submitLabel,
  onSubmit,
  busyLabel,
  freeChoice = false,
}: {
  initial: ListingFormValues;
  /** Offer "Give it away for free" (posting only: a listing's free or priced kind is fixed after). */
  freeChoice?: boolean;
  submitLabel: string;
  /** What the submit button says while `onSubmit` runs (phase text from the page). */
  busyLabel: string | null;
  onSubmit: (values: ListingFormResult) => Promise<void>;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const ids = { category: useId(), condition: useId() };
  const [values, setValues] = useState<ListingFormValues>(initial);
  const [nameCut, setNameCut] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = submitting || busyLabel !== null;
  const { name, price, category, description } = values;
  const showCondition = category !== '' && conditionApplies(category);
  const showTextbook = category !== '' && textbookFieldsApply(category);

  const set = <K extends keyof ListingFormValues>(key: K, value: ListingFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors((prev) => (prev[key as FieldName] ? { ...prev, [key]: undefined } : prev));
  };

  // Object URLs of chosen files are released when the form goes away.
  const photosRef = useRef(values.photos);
  photosRef.current = values.photos;
  useEffect(
    () => () => {
      for (const p of photosRef.current) if (p.kind === 'new') URL.revokeObjectURL(p.url);
    },
    [],
  );

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const check = checkListingForm(values, { condition: showCondition, textbook: showTextbook });
    setErrors(check.ok ? {} : check.errors);
    if (!check.ok) {
      toast.error(check.summary);
      formRef.current?.querySelector<HTMLElement>(`[name="${check.first}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await onSubmit(check.result);
    } catch (error) {
      console.error('Failed to save the listing', error);
      toast.error(uploadErrorText(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="mt-8 space-y-6" aria-busy={busy}>
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={(e) => {
          const next = limitText(e, LIMITS.listingNameMax);
          set('name', next.value);
          setNameCut(next.cut);
        }}
        placeholder="e.g. Intro to Psychology, 8th edition"
        autoComplete="off"
        hint={
          <span className="flex justify-between gap-3">
            <span aria-live="polite" className={cx(nameCut && 'font-semibold text-amber-800')}>
              {nameCut ? MESSAGES.listingNameCut(LIMITS.listingNameMax) : ''}
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

      {freeChoice && (
        <FreeChoice
          free={values.free}
          hours={values.claimWindowHours}
          onFree={(free) => set('free', free)}
          onHours={(hours) => set('claimWindowHours', hours)}
        />
      )}

      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
        {values.free ? (
          <div>
            <p className="text-sm font-semibold text-slate-800">Price</p>
            <p className="mt-1.5 flex h-11 items-center rounded-xl border border-emerald-200 bg-emerald-50 px-3 font-semibold text-emerald-800">
              Free
            </p>
          </div>
        ) : (
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
        )}
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

      <PriceGuideHint
        fields={{
          name,
          category,
          condition: showCondition ? values.condition : null,
          courseCode: showTextbook ? values.courseCode : '',
          isbn: showTextbook ? values.isbn : '',
        }}
      />

      <DescriptionField
        value={description}
        onChange={(next) => set('description', next)}
        error={errors.description}
      />

      <PhotoPicker items={values.photos} onChange={(photos) => set('photos', photos)} disabled={busy} />

      <Button type="submit" size="lg" fullWidth loading={busy}>
        {busyLabel ?? submitLabel}
      </Button>
    </form>
  );
}
