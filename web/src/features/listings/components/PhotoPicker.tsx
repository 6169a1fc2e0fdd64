import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { PHOTO_ACCEPT, SELLING_LIMITS, SELLING_MESSAGES, type ListingPhoto } from '@campus/contract';
import { apiUrl } from '../../../api/client';
import { cx } from '../../../ui/cx';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon, PlusIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { checkPickedPhotos } from '../compressPhoto';

/** A photo in the form: one already on the listing, or a file chosen now (uploaded on save). */
export type PhotoItem =
  | { key: string; kind: 'existing'; photo: ListingPhoto }
  | { key: string; kind: 'new'; file: File; url: string };

let seq = 0;
export function newPhotoItem(file: File): PhotoItem {
  seq += 1;
  return { key: `new-${seq}`, kind: 'new', file, url: URL.createObjectURL(file) };
}

export function existingPhotoItem(photo: ListingPhoto): PhotoItem {
  return { key: `photo-${photo.id}`, kind: 'existing', photo };
}

const itemSrc = (item: PhotoItem) => (item.kind === 'new' ? item.url : apiUrl(item.photo.thumbnailUrl));

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * Up to 8 photos before saving (features.md §B): previews, remove, reorder by drag and drop
 * (desktop) or the arrow buttons (phones, keyboards, screen readers); the first is the cover.
 * Nothing is uploaded here: the form sends the photos in this order when it is saved.
 */
export function PhotoPicker({
  items,
  onChange,
  disabled = false,
}: {
  items: readonly PhotoItem[];
  onChange: (items: PhotoItem[]) => void;
  disabled?: boolean;
}) {
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const full = items.length >= SELLING_LIMITS.photosMax;
  const count = items.length;

  async function onFiles(input: HTMLInputElement) {
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length === 0) return;
    // JPEG, PNG, WebP and HEIC are taken (each becomes a JPEG on save); a HEIC this browser
    // cannot open is refused now, with what to choose instead.
    const { photos, problems } = await checkPickedPhotos(files);
    for (const problem of problems) toast.error(problem);
    const room = SELLING_LIMITS.photosMax - items.length;
    if (photos.length > room) toast.error(SELLING_MESSAGES.photosTooMany);
    const added = photos.slice(0, Math.max(0, room)).map(newPhotoItem);
    if (added.length === 0) return;
    onChange([...items, ...added]);
    setAnnouncement(
      `${added.length === 1 ? '1 photo' : `${added.length} photos`} added, ${items.length + added.length} of ${SELLING_LIMITS.photosMax}.`,
    );
  }

  // Photos chosen on the server-rendered page before its script was ready: the input holds them,
  // but the change went by unheard. Taken now, as if just chosen.
  useEffect(() => {
    if (fileRef.current?.files?.length) void onFiles(fileRef.current);
    // Once, on the first render: later choices arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function reorder(from: number, to: number) {
    if (to < 0 || to >= items.length || from === to) return;
    onChange(move(items, from, to));
    setAnnouncement(
      `Photo moved to position ${to + 1} of ${items.length}${to === 0 ? ', now the cover' : ''}.`,
    );
  }

  function remove(index: number) {
    const item = items[index];
    if (item?.kind === 'new') URL.revokeObjectURL(item.url);
    onChange(items.filter((_, i) => i !== index));
    setAnnouncement(`Photo ${index + 1} removed.`);
    // Keep focus in the picker: on the add button (the removed tile's buttons are gone).
    requestAnimationFrame(() => fileRef.current?.focus());
  }

  const dragProps = (index: number) => ({
    draggable: !disabled,
    onDragStart: (e: DragEvent<HTMLLIElement>) => {
      setDragging(index);
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(index));
    },
    onDragOver: (e: DragEvent<HTMLLIElement>) => {
      if (dragging === null) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      if (over !== index) setOver(index);
    },
    onDrop: (e: DragEvent<HTMLLIElement>) => {
      e.preventDefault();
      const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
      setDragging(null);
      setOver(null);
      if (Number.isInteger(from)) reorder(from, index);
    },
    onDragEnd: () => {
      setDragging(null);
      setOver(null);
    },
  });

  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between gap-3">
        <span id={`${inputId}-label`} className="block text-sm font-medium text-slate-800">
          Photos{' '}
          <span className="font-normal text-slate-600">(optional, up to {SELLING_LIMITS.photosMax})</span>
        </span>
        <span className="text-xs text-slate-600 tabular-nums">
          {count}/{SELLING_LIMITS.photosMax}
        </span>
      </div>
      <p id={`${inputId}-hint`} className="text-sm text-slate-600">
        The first photo is the cover. Drag to reorder, or use the arrows.
      </p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ul aria-label="Chosen photos" className="grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3">
        {items.map((item, i) => (
          <li
            key={item.key}
            {...dragProps(i)}
            className={cx(
              'group relative aspect-square overflow-hidden rounded-xl border bg-slate-100 md:cursor-grab',
              i === 0 ? 'border-brand-500 ring-2 ring-brand-200' : 'border-slate-200',
              dragging === i && 'opacity-50',
              over === i && dragging !== i && 'ring-3 ring-brand-500',
            )}
          >
            <img
              src={itemSrc(item)}
              alt={`Photo ${i + 1} of ${count}${item.kind === 'new' ? `: ${item.file.name}` : ''}${i === 0 ? ' (cover)' : ''}`}
              draggable={false}
              className="h-full w-full object-cover"
            />
            {i === 0 && (
              <span className="absolute top-1 left-1 rounded-md bg-brand-700 px-1.5 py-0.5 text-[0.6875rem] font-bold text-white uppercase">
                Cover
              </span>
            )}
            <button
              type="button"
              disabled={disabled}
              onClick={() => remove(i)}
              aria-label={`Remove photo ${i + 1}`}
              className="absolute top-1 right-1 flex h-8 w-8 items-center justify-center rounded-full bg-white/95 text-slate-800 shadow ring-1 ring-slate-900/10 hover:bg-white hover:text-red-700"
            >
              <CloseIcon size={16} />
            </button>
            <div className="absolute inset-x-1 bottom-1 flex justify-between">
              <button
                type="button"
                disabled={disabled || i === 0}
                onClick={() => reorder(i, i - 1)}
                aria-label={`Move photo ${i + 1} earlier`}
                className="flex h-8 w-8 items-center justify-center rounded-full bg-white/95 text-slate-800 shadow ring-1 ring-slate-900/10 hover:bg-white disabled:invisible"
              >
                <ChevronLeftIcon size={18} />
              </button>
              <button
                type="button"
                disabled={disabled || i === count - 1}
                onClick={() => reorder(i, i + 1)}
                aria-label={`Move photo ${i + 1} later`}
                className="flex h-8 w-8 items-center justify-center rounded-full bg-white/95 text-slate-800 shadow ring-1 ring-slate-900/10 hover:bg-white disabled:invisible"
              >
                <ChevronRightIcon size={18} />
              </button>
            </div>
          </li>
        ))}
        {!full && (
          <li className={cx(count === 0 && 'col-span-3 sm:col-span-4')}>
            {/* The real input stays in the tab order (visually hidden); the tile is its label. */}
            <input
              ref={fileRef}
              id={inputId}
              type="file"
              name="image"
              multiple
              accept={PHOTO_ACCEPT}
              aria-labelledby={`${inputId}-label`}
              aria-describedby={`${inputId}-hint`}
              disabled={disabled}
              onChange={(e) => void onFiles(e.currentTarget)}
              className="peer sr-only"
            />
            <label
              htmlFor={inputId}
              className={cx(
                'flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50 text-center transition peer-focus-visible:border-brand-500 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 hover:border-brand-400 hover:bg-brand-50/40',
                count === 0 ? 'px-4 py-8' : 'aspect-square px-2',
              )}
            >
              <span className="flex h-9 w-9 items-center justify-center rounded-full bg-white text-brand-700 shadow-sm">
                <PlusIcon size={20} />
              </span>
              <span className="text-sm font-semibold text-slate-900">
                {count === 0 ? 'Add photos' : 'Add more'}
              </span>
              {count === 0 && (
                <span className="text-xs text-slate-600">
                  JPG, PNG, WebP or HEIC · we shrink them before upload
                </span>
              )}
            </label>
          </li>
        )}
      </ul>
    </div>
  );
}
