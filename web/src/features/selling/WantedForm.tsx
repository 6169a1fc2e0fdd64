import { useId, useState, type FormEvent } from 'react';
import {
  CATEGORY_LABELS,
  FORM_CATEGORIES,
  isCategory,
  SELLING_LIMITS,
  textbookFieldsApply,
  wantedSchema,
  type WantedPost,
} from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { createWanted } from '../../api/selling';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { inputClasses, TextField } from '../../ui/TextField';
import { FieldError, SelectField } from '../../ui/forms';
import { fieldErrors } from '../../ui/schemaErrors';
import { toast } from '../../ui/toast';

export interface WantedPrefill {
  category?: string;
  courseCode?: string;
  title?: string;
}

type Field = 'title' | 'category' | 'maxPrice' | 'courseCode' | 'description';

/** "Post a wanted item" (features.md §B "Wanted posts"): what, category, optional price and course. */
export function WantedForm({
  prefill,
  onPosted,
  onCancel,
}: {
  prefill: WantedPrefill;
  onPosted: (post: WantedPost) => void;
  onCancel: () => void;
}) {
  const ids = { category: useId(), description: useId() };
  const [title, setTitle] = useState(prefill.title ?? '');
  const [category, setCategory] = useState(
    prefill.category && isCategory(prefill.category) ? prefill.category : '',
  );
  const [maxPrice, setMaxPrice] = useState('');
  const [courseCode, setCourseCode] = useState(prefill.courseCode ?? '');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const isBook = textbookFieldsApply(category);

  /** The contract's wanted-post rules and messages; the course code only where the form shows it. */
  function validate(): Partial<Record<Field, string>> {
    return fieldErrors<Field>(wantedSchema, {
      title,
      category,
      description,
      maxPrice,
      courseCode: isBook ? courseCode : undefined,
    });
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    const first = (['title', 'category', 'maxPrice', 'courseCode', 'description'] as const).find(
      (f) => found[f],
    );
    if (first || !isCategory(category)) {
      if (first) e.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const post = await createWanted({
        title: title.trim(),
        category,
        description: description.trim() || undefined,
        maxPrice: maxPrice.trim() || undefined,
        courseCode: isBook && courseCode.trim() ? courseCode.trim() : undefined,
      });
      toast.success('Posted. Sellers with a match will see it.');
      onPosted(post);
    } catch (error) {
      toast.error(serverMessageOf(error) ?? 'Could not post it. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Post a wanted item"
      className="space-y-4 rounded-2xl border border-brand-200 bg-white p-4 shadow-card sm:p-6"
    >
      <h2 className="text-lg font-semibold text-slate-900">What are you looking for?</h2>
      <TextField
        label="Looking for"
        name="title"
        value={title}
        maxLength={SELLING_LIMITS.wantedTitleMax}
        onChange={(e) => {
          setTitle(e.target.value);
          setErrors((x) => ({ ...x, title: undefined }));
        }}
        placeholder="e.g. Mini fridge for a dorm room"
        autoComplete="off"
        error={errors.title}
        required
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          id={ids.category}
          label="Category"
          name="category"
          value={category}
          onChange={(value) => {
            setCategory(value);
            setErrors((x) => ({ ...x, category: undefined }));
          }}
          error={errors.category}
          placeholder={{ label: 'Choose a Category', disabled: true }}
          options={FORM_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }))}
        />
        <TextField
          label="Most you'd pay (optional)"
          name="maxPrice"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={maxPrice}
          onChange={(e) => {
            setMaxPrice(e.target.value);
            setErrors((x) => ({ ...x, maxPrice: undefined }));
          }}
          placeholder="In dollars"
          error={errors.maxPrice}
        />
      </div>
      {isBook && (
        <TextField
          label="Course code (optional)"
          name="courseCode"
          value={courseCode}
          onChange={(e) => {
            setCourseCode(e.target.value);
            setErrors((x) => ({ ...x, courseCode: undefined }));
          }}
          placeholder="e.g. CSE 232"
          autoComplete="off"
          error={errors.courseCode}
        />
      )}
      <div className="space-y-1.5">
        <label htmlFor={ids.description} className="block text-sm font-medium text-slate-800">
          Details (optional)
        </label>
        <textarea
          id={ids.description}
          name="description"
          rows={3}
          maxLength={SELLING_LIMITS.wantedDescriptionMax}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="Edition, size, colour, when you need it…"
          className={cx(inputClasses, 'h-auto resize-y border-slate-300 py-2.5 leading-relaxed')}
        />
        <FieldError id={`${ids.description}-error`} message={errors.description} />
      </div>
      <p className="text-sm text-slate-600">
        Your post stays up for {SELLING_LIMITS.wantedDays} days. You can have {SELLING_LIMITS.wantedOpenMax}{' '}
        open at a time.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={busy}>
          Post wanted item
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
