import { MESSAGES, SELLING_LIMITS, SELLING_MESSAGES } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../http/errors.js';
import { assertNoNul } from '../http/text-guard.js';
import { readLimited } from '../media/index.js';

const TEXT_FIELDS = new Set(['name', 'category', 'description', 'price', 'condition', 'courseCode', 'isbn']);
const IMAGE_FIELD = 'image';

export interface CreateForm {
  fields: Record<string, string>;
  /** Photos in the order sent (repeated `image` parts, at most 8); the first is the cover. */
  images: Buffer[];
}

/**
 * Reads the create-listing form: multipart (spec §7) with text fields name, category,
 * description, price and an optional file field `image`; a JSON object with the same text
 * fields is accepted too (no photo). Unknown fields, a second file or oversized fields -> 400;
 * a photo over 10 MB -> 413.
 */
export async function readCreateForm(request: FastifyRequest): Promise<CreateForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(MESSAGES.listingRequiredFields);
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (!TEXT_FIELDS.has(key)) throw badRequest(MESSAGES.listingUnknownField);
      if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
    }
    return { fields, images: [] };
  }
  const fields: Record<string, string> = {};
  const images: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== IMAGE_FIELD) {
          part.file.resume();
          throw badRequest(MESSAGES.listingUnknownField);
        }
        const bytes = await readLimited(part.file);
        // A form whose file input was left empty sends an empty part: no photo.
        if (bytes.length > 0) images.push(bytes);
        if (images.length > SELLING_LIMITS.photosMax) throw badRequest(SELLING_MESSAGES.photosTooMany);
      } else {
        if (!TEXT_FIELDS.has(part.fieldname)) throw badRequest(MESSAGES.listingUnknownField);
        if (part.valueTruncated) throw badRequest(MESSAGES.listingFormTooLarge);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        assertNoNul(fields[part.fieldname]!);
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(SELLING_MESSAGES.photosTooMany);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest(MESSAGES.listingFormTooLarge);
    throw err;
  }
  return { fields, images };
}

/** POST /listing/{id}/photos: one `image` part. */
export async function readPhotoForm(request: FastifyRequest): Promise<Buffer | null> {
  if (!request.isMultipart()) throw badRequest(SELLING_MESSAGES.photoRequired);
  let image: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== IMAGE_FIELD) {
        if (part.type === 'file') part.file.resume();
        throw badRequest(MESSAGES.listingUnknownField);
      }
      const bytes = await readLimited(part.file);
      if (image !== null) throw badRequest(MESSAGES.listingOneImage);
      image = bytes.length > 0 ? bytes : null;
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(MESSAGES.listingOneImage);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest(MESSAGES.listingFormTooLarge);
    throw err;
  }
  return image;
}
