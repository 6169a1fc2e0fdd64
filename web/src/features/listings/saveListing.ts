import { dollarsAsCents, dollarsToCents, type Listing } from '@campus/contract';
import {
  addListingPhoto,
  createListing,
  editListing,
  removeListingPhoto,
  reorderListingPhotos,
  type ListingEdit,
} from '../../api/listings';
import type { ListingFormResult } from './components/listingFormValues';
import { preparePhoto } from './compressPhoto';

export type SavePhase = 'compressing' | 'uploading';

/** POST /listing with every photo in the chosen order; answers the server's reply text. */
export async function createFromForm(
  form: ListingFormResult,
  onPhase: (phase: SavePhase) => void,
): Promise<string> {
  onPhase('compressing');
  const images: Blob[] = [];
  for (const item of form.photos) if (item.kind === 'new') images.push(await preparePhoto(item.file));
  onPhase('uploading');
  return createListing({
    name: form.name,
    category: form.category,
    description: form.description,
    price: form.price,
    condition: form.condition,
    courseCode: form.courseCode,
    isbn: form.isbn,
    free: form.free,
    claimWindowHours: form.claimWindowHours,
    images,
  });
}

/** Only the fields that changed (PATCH refuses an empty body; the server drops fields a move makes void). */
export function changedFields(listing: Listing, form: ListingFormResult): ListingEdit {
  const edit: ListingEdit = {};
  if (form.name !== listing.name) edit.name = form.name;
  if (form.description !== listing.description) edit.description = form.description;
  if (form.category !== listing.category) edit.category = form.category;
  // A free item stays free (features.md §H): its price is never sent.
  if (!listing.free && dollarsToCents(form.price) !== dollarsAsCents(listing.price)) edit.price = form.price;
  if (form.condition !== (listing.condition ?? null) && (form.condition !== null || listing.condition))
    edit.condition = form.condition;
  if (form.category === 'BOOKS') {
    if (form.courseCode !== (listing.courseCode ?? null)) edit.courseCode = form.courseCode;
    if (form.isbn !== (listing.isbn ?? null)) edit.isbn = form.isbn;
  }
  // A move to services or events clears the condition on the server; do not send it then.
  if (form.condition === null && (form.category === 'SERVICES' || form.category === 'EVENTS'))
    delete edit.condition;
  return edit;
}

/**
 * Saves an edit: the fields (PATCH), then the photos — removals first (room for additions),
 * additions in order, and one reorder when the result differs from the chosen order.
 * Answers the listing as the server has it now.
 */
export async function editFromForm(
  listing: Listing,
  form: ListingFormResult,
  onPhase: (phase: SavePhase) => void,
): Promise<Listing> {
  let current = listing;
  const edit = changedFields(listing, form);
  const newFiles = form.photos.filter((p) => p.kind === 'new');
  const prepared = new Map<string, Blob>();
  if (newFiles.length > 0) {
    onPhase('compressing');
    for (const item of newFiles)
      if (item.kind === 'new') prepared.set(item.key, await preparePhoto(item.file));
  }
  onPhase('uploading');
  if (Object.keys(edit).length > 0) current = await editListing(listing.id, edit);

  const kept = new Set(form.photos.flatMap((p) => (p.kind === 'existing' ? [p.photo.id] : [])));
  for (const photo of listing.photos)
    if (!kept.has(photo.id)) current = await removeListingPhoto(listing.id, photo.id);

  const idOf = new Map<string, number>();
  for (const item of form.photos) {
    if (item.kind === 'existing') {
      idOf.set(item.key, item.photo.id);
      continue;
    }
    const before = new Set(current.photos.map((p) => p.id));
    current = await addListingPhoto(listing.id, prepared.get(item.key) ?? item.file);
    const added = current.photos.find((p) => !before.has(p.id));
    if (added) idOf.set(item.key, added.id);
  }

  const wanted = form.photos.map((p) => idOf.get(p.key)).filter((id): id is number => id !== undefined);
  const now = current.photos.map((p) => p.id);
  if (wanted.length === now.length && wanted.some((id, i) => id !== now[i]))
    current = await reorderListingPhotos(listing.id, wanted);
  return current;
}
