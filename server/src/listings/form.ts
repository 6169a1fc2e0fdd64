import { MESSAGES, SELLING_LIMITS, SELLING_MESSAGES } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../http/errors.js';
import { assertNoNul } from '../http/text-guard.js';
import { discardIncoming, receiveFile, type IncomingFile } from '../media/index.js';

const TEXT_FIELDS = new Set([
  'name',
  'category',
  'description',
  'price',
  'condition',
  'courseCode',
  'isbn',
  // features.md §H: a free item and its claim window
  'free',
  'claimWindowHours',
]);
/** The required fields: once all are in, the form can be checked before any photo is read. */
const REQUIRED_FIELDS = ['name', 'category', 'description', 'price'] as const;
const IMAGE_FIELD = 'image';

export interface CreateForm {
  fields: Record<string, string>;
  /** Photos in the order sent (repeated `image` parts, at most 8), received to disk; the first is the cover. */
  images: IncomingFile[];
  /** Whether `check` ran on these fields (before the photos were read). */
  checked: boolean;
}

export interface CreateFormOptions {
  dataDir: string;
  /**
   * The cheap checks of the text fields (validation, prohibited terms, daily cap): run as soon as
   * the required fields are in and a photo starts, so a form that will be refused is refused
   * before its photos are read. A form whose photos come before its fields is checked by the
   * caller at the end instead (the photos then wait on disk, not in memory).
   */
  check(fields: Record<string, string>): Promise<void>;
}

/**
 * Reads the create-listing form: multipart (spec §7) with text fields name, category,
 * description, price and optional file fields `image`; a JSON object with the same text fields is
 * accepted too (no photo). Unknown fields, a ninth photo or oversized fields -> 400; a photo over
 * 10 MB -> 413, a part that does not start like a JPEG -> 400, both before the rest is read.
 * Photos are streamed to disk one at a time; the caller discards them (discardIncoming).
 */
export async function readCreateForm(
  request: FastifyRequest,
  options: CreateFormOptions,
): Promise<CreateForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(MESSAGES.listingRequiredFields);
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (!TEXT_FIELDS.has(key)) throw badRequest(MESSAGES.listingUnknownField);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        fields[key] = String(value);
    }
    return { fields, images: [], checked: false };
  }
  const fields: Record<string, string> = {};
  const images: IncomingFile[] = [];
  let checked = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== IMAGE_FIELD) {
          part.file.resume();
          throw badRequest(MESSAGES.listingUnknownField);
        }
        if (images.length >= SELLING_LIMITS.photosMax) {
          part.file.resume();
          throw badRequest(SELLING_MESSAGES.photosTooMany);
        }
        if (!checked && REQUIRED_FIELDS.every((f) => f in fields)) {
          await options.check(fields);
          checked = true;
        }
        // A form whose file input was left empty sends an empty part: no photo.
        const file = await receiveFile(options.dataDir, part.file);
        if (file) images.push(file);
      } else {
        if (!TEXT_FIELDS.has(part.fieldname)) throw badRequest(MESSAGES.listingUnknownField);
        if (part.valueTruncated) throw badRequest(MESSAGES.listingFormTooLarge);
        // The checks ran on the required fields as they were: they may not change afterwards.
        if (checked && (REQUIRED_FIELDS as readonly string[]).includes(part.fieldname))
          throw badRequest(SELLING_MESSAGES.fieldsBeforePhotos);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        assertNoNul(fields[part.fieldname]!);
      }
    }
  } catch (err) {
    await discardIncoming(images);
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(SELLING_MESSAGES.photosTooMany);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest(MESSAGES.listingFormTooLarge);
    throw err;
  }
  return { fields, images, checked };
}

/**
 * POST /listing/{id}/photos and /users/me/avatar: one `image` part, received to disk (the caller
 * discards it). A second part -> 400; over 10 MB -> 413 and not a JPEG -> 400 as it arrives.
 */
export async function readPhotoForm(request: FastifyRequest, dataDir: string): Promise<IncomingFile | null> {
  if (!request.isMultipart()) throw badRequest(SELLING_MESSAGES.photoRequired);
  let image: IncomingFile | null = null;
  let parts = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== IMAGE_FIELD) {
        if (part.type === 'file') part.file.resume();
        throw badRequest(MESSAGES.listingUnknownField);
      }
      parts += 1;
      if (parts > 1) {
        part.file.resume();
        throw badRequest(MESSAGES.listingOneImage);
      }
      image = await receiveFile(dataDir, part.file);
    }
  } catch (err) {
    await discardIncoming([image]);
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(MESSAGES.listingOneImage);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest(MESSAGES.listingFormTooLarge);
    throw err;
  }
  return image;
}
