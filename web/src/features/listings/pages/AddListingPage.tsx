import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  CATEGORY_LABELS,
  dollarsToCents,
  FORM_CATEGORIES,
  isCategory,
  LIMITS,
  MESSAGES,
} from '@campus/contract';
import { ApiError } from '../../../api/client';
import { createListing, listingKeys } from '../../../api/listings';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { cx } from '../../../ui/cx';
import { AlertIcon, ChevronDownIcon, CloseIcon, PlusIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { inputClasses, TextField } from '../../../ui/TextField';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { compressPhoto, isJpeg } from '../compressPhoto';

const DESCRIPTION_MAX_HEIGHT = 240;

type FieldName = 'name' | 'price' | 'category' | 'description';
type Errors = Partial<Record<FieldName, string>>;

/** Spec §8: server message, else string body, else error message, else the generic upload error. */
function uploadErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (typeof error.body === 'string' && error.body.trim() && !error.body.trim().startsWith('<')) {
      return error.body.trim();
    }
    if (error.status === 413) return MESSAGES.imageTooLarge;
    if (error.isNetworkError) return MESSAGES.listingUploadError;
  }
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.listingUploadError;
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

/**
 * /addlisting (spec §2, §5): Name, Price, Choose a Category, Description (auto-growing to 240 px,
 * 900-character counter), optional JPG/JPEG photo compressed in the browser; 'Add listing'.
 */
export default function AddListingPage() {
  useDocumentTitle('Add a new Listing');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const ids = {
    category: useId(),
    description: useId(),
    photo: useId(),
  };

  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [category, setCategory] = useState('');
  const [description, setDescription] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<'idle' | 'compressing' | 'uploading'>('idle');
  const busy = phase !== 'idle';

  // Description grows with its text up to 240 px, then scrolls.
  useLayoutEffect(() => {
    const el = descriptionRef.current;
    if (!el) return;
    el.style.height = 'auto';
    const next = Math.min(el.scrollHeight + 2, DESCRIPTION_MAX_HEIGHT);
    el.style.height = `${next}px`;
    el.style.overflowY = el.scrollHeight + 2 > DESCRIPTION_MAX_HEIGHT ? 'auto' : 'hidden';
  }, [description]);

  // Object URL of the preview, revoked when replaced or on leaving.
  useEffect(() => {
    if (!photo) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  function clearError(field: FieldName) {
    setErrors((prev) => (prev[field] ? { ...prev, [field]: undefined } : prev));
  }

  function onPhotoChange(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0] ?? null;
    if (!file) return;
    if (!isJpeg(file)) {
      toast.error(MESSAGES.imageNotJpeg);
      e.target.value = '';
      return;
    }
    setPhoto(file);
  }

  function removePhoto() {
    setPhoto(null);
    if (fileRef.current) {
      fileRef.current.value = '';
      fileRef.current.focus();
    }
  }

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
    return { errors: found, missingRequired };
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const { errors: found, missingRequired } = validate();
    setErrors(found);
    const firstError = (['name', 'price', 'category', 'description'] as const).find((f) => found[f]);
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

    let image: Blob | null = null;
    if (photo) {
      setPhase('compressing');
      try {
        image = await compressPhoto(photo);
      } catch (error) {
        console.error('Photo compression failed', error);
        if (photo.size > LIMITS.imageMaxBytes) {
          setPhase('idle');
          toast.error(MESSAGES.listingPhotoUnreadable);
          return;
        }
        image = photo; // the server checks, re-encodes and strips it anyway
      }
    }

    setPhase('uploading');
    try {
      const reply = await createListing({
        name: name.trim(),
        category,
        description: description.trim(),
        price: price.trim(),
        image,
      });
      if (reply === MESSAGES.listingCreated) {
        await queryClient.invalidateQueries({ queryKey: listingKeys.all, refetchType: 'none' });
        toast.success(MESSAGES.listingCreated);
        navigate('/all_listings');
        return;
      }
      toast.error(reply || MESSAGES.listingUploadError);
    } catch (error) {
      console.error('Failed to create the listing', error);
      toast.error(uploadErrorText(error));
    } finally {
      setPhase('idle');
    }
  }

  const descriptionCount = description.length;
  const nearLimit = descriptionCount >= LIMITS.descriptionMax - 50;

  return (
    <PageContainer width="narrow" className="sm:max-w-2xl sm:py-10">
      <Card padding="lg">
        <div className="mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <TagIcon size={24} />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Add a new Listing</h1>
        <p className="mt-2 text-slate-600">Takes under a minute. Add a photo to sell faster.</p>

        <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-8 space-y-6" aria-busy={busy}>
          <TextField
            label="Name"
            name="name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              clearError('name');
            }}
            placeholder="e.g. Intro to Psychology, 8th edition"
            autoComplete="off"
            maxLength={LIMITS.listingNameMax}
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
              onChange={(e) => {
                setPrice(e.target.value);
                clearError('price');
              }}
              placeholder="0.00"
              hint="In dollars, e.g. 12.50"
              error={errors.price}
              required
            />

            <div className="space-y-1.5">
              <label htmlFor={ids.category} className="block text-sm font-medium text-slate-800">
                Category
              </label>
              <div className="relative">
                <select
                  id={ids.category}
                  name="category"
                  value={category}
                  onChange={(e) => {
                    setCategory(e.target.value);
                    clearError('category');
                  }}
                  required
                  aria-invalid={errors.category ? true : undefined}
                  aria-describedby={errors.category ? `${ids.category}-error` : undefined}
                  className={cx(
                    inputClasses,
                    'appearance-none pr-10',
                    category === '' && 'text-slate-500',
                    errors.category
                      ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
                      : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
                  )}
                >
                  <option value="" disabled>
                    Choose a Category
                  </option>
                  {FORM_CATEGORIES.map((c) => (
                    <option key={c} value={c} className="text-slate-900">
                      {CATEGORY_LABELS[c]}
                    </option>
                  ))}
                </select>
                <ChevronDownIcon
                  size={18}
                  className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500"
                />
              </div>
              <FieldError id={`${ids.category}-error`} message={errors.category} />
            </div>
          </div>

          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between gap-3">
              <label htmlFor={ids.description} className="block text-sm font-medium text-slate-800">
                Description
              </label>
              <span
                id={`${ids.description}-count`}
                className={cx(
                  'text-xs tabular-nums',
                  nearLimit ? 'font-semibold text-amber-700' : 'text-slate-500',
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
              maxLength={LIMITS.descriptionMax}
              onChange={(e) => {
                setDescription(e.target.value);
                clearError('description');
              }}
              placeholder="Condition, edition or size, what's included, when you can meet…"
              required
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={cx(
                `${ids.description}-count`,
                errors.description && `${ids.description}-error`,
              )}
              className={cx(
                inputClasses,
                'h-auto min-h-24 resize-none py-2.5 leading-relaxed',
                errors.description
                  ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
                  : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
              )}
            />
            <FieldError id={`${ids.description}-error`} message={errors.description} />
          </div>

          <div className="space-y-1.5">
            <span id={`${ids.photo}-label`} className="block text-sm font-medium text-slate-800">
              Photo <span className="font-normal text-slate-500">(optional, JPG/JPEG)</span>
            </span>
            {/* The real input stays in the tab order (visually hidden); the box below is its label. */}
            <input
              ref={fileRef}
              id={ids.photo}
              type="file"
              name="image"
              accept=".jpg,.jpeg,image/jpeg"
              aria-labelledby={`${ids.photo}-label`}
              onChange={onPhotoChange}
              className="peer sr-only"
            />
            {preview && photo ? (
              <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-slate-50 p-3 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500">
                <img
                  src={preview}
                  alt="Preview of the chosen photo"
                  className="h-24 w-24 shrink-0 rounded-xl object-cover sm:h-28 sm:w-28"
                />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900">{photo.name}</p>
                  <p className="text-xs text-slate-500">
                    {(photo.size / 1024 / 1024).toFixed(1)} MB · resized to at most {LIMITS.imageMaxSide} px
                    before upload
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <label
                      htmlFor={ids.photo}
                      className="inline-flex h-9 cursor-pointer items-center rounded-xl border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
                    >
                      Change photo
                    </label>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={removePhoto}
                      leadingIcon={<CloseIcon size={16} />}
                    >
                      Remove photo
                    </Button>
                  </div>
                </div>
              </div>
            ) : (
              <label
                htmlFor={ids.photo}
                className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center transition peer-focus-visible:border-brand-500 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 hover:border-brand-400 hover:bg-brand-50/40"
              >
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-white text-brand-700 shadow-sm">
                  <PlusIcon size={20} />
                </span>
                <span className="text-sm font-semibold text-slate-900">Add a photo</span>
                <span className="text-xs text-slate-500">JPG or JPEG · we shrink it before upload</span>
              </label>
            )}
          </div>

          <Button type="submit" size="lg" fullWidth loading={busy}>
            {phase === 'compressing'
              ? MESSAGES.listingPhotoPreparing
              : phase === 'uploading'
                ? MESSAGES.listingPosting
                : 'Add listing'}
          </Button>
        </form>
      </Card>
    </PageContainer>
  );
}
