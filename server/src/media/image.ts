import { availableParallelism } from 'node:os';
import { LIMITS, MESSAGES } from '@campus/contract';
import sharp, { type Metadata } from 'sharp';
import { HttpError, badRequest } from '../http/errors.js';
import type { IncomingFile } from './incoming.js';

export interface ProcessedImage {
  /** Re-encoded photo: JPEG, at most LIMITS.imageMaxSide on either side, no metadata. */
  image: Buffer;
  /** Card thumbnail: JPEG, LIMITS.thumbnailSide wide, 4:3, no metadata. */
  thumb: Buffer;
  width: number;
  height: number;
}

/** Quality of the re-encoded photo and of the thumbnail (mozjpeg). */
const PHOTO_QUALITY = 82;
const THUMB_QUALITY = 78;
export const THUMB_WIDTH = LIMITS.thumbnailSide;
export const THUMB_HEIGHT = Math.round((LIMITS.thumbnailSide * 3) / 4);

/** A JPEG starts with SOI (FF D8) followed by another marker (FF). */
export function hasJpegMagic(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

export function tooLarge(): HttpError {
  return new HttpError(413, MESSAGES.imageTooLarge);
}

/**
 * Photos decoded at once in this process. Decoding is CPU-bound (more at once than cores is no
 * faster) and each decode holds the full-size pixels (~20 MB for 6 MP); uploads past this wait
 * with their photos on disk, so a burst of uploads costs time, not memory.
 */
const DECODES_AT_ONCE = Math.max(1, Math.min(4, availableParallelism()));
let decoding = 0;
const waiting: Array<() => void> = [];

async function oneDecodeSlot<T>(run: () => Promise<T>): Promise<T> {
  if (decoding >= DECODES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else decoding += 1;
  try {
    return await run();
  } finally {
    // The slot passes straight to the next waiter (the count stays), or is given back.
    const next = waiting.shift();
    if (next) next();
    else decoding -= 1;
  }
}

/**
 * Checks a JPEG by its content (never by file name or declared type), decodes it under a pixel
 * limit, turns it upright by its EXIF orientation and re-encodes it without any metadata.
 * Every bad input is a 400 a person can act on; nothing is written anywhere.
 */
export function processJpeg(input: Buffer | IncomingFile): Promise<ProcessedImage> {
  return oneDecodeSlot(() => decodeJpeg(input));
}

async function decodeJpeg(input: Buffer | IncomingFile): Promise<ProcessedImage> {
  if (Buffer.isBuffer(input)) {
    if (input.length > LIMITS.imageMaxBytes) throw tooLarge();
    if (!hasJpegMagic(input)) throw badRequest(MESSAGES.imageNotJpeg);
  } else if (input.size > LIMITS.imageMaxBytes) {
    // A received file passed the magic check as it arrived (incoming.ts).
    throw tooLarge();
  }
  // A received file is decoded from disk: libvips reads it as it goes, never the whole in memory.
  const source = Buffer.isBuffer(input) ? input : input.path;
  const options = { limitInputPixels: LIMITS.imageMaxPixels, failOn: 'error' as const };
  let meta: Metadata;
  try {
    // metadata() reads the header only, so a bomb is refused before anything is decoded.
    meta = await sharp(source, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(MESSAGES.imageUnreadable);
  }
  if (meta.format !== 'jpeg') throw badRequest(MESSAGES.imageNotJpeg);
  if (!meta.width || !meta.height) throw badRequest(MESSAGES.imageUnreadable);
  if (meta.width * meta.height > LIMITS.imageMaxPixels) throw badRequest(MESSAGES.imageTooManyPixels);
  try {
    // sharp writes no metadata unless asked to (keepMetadata/withMetadata): EXIF, GPS, XMP, ICC,
    // comments all stay behind. rotate() without an angle applies the EXIF orientation.
    const { data: image, info } = await sharp(source, options)
      .rotate()
      .resize({
        width: LIMITS.imageMaxSide,
        height: LIMITS.imageMaxSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality: PHOTO_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(image)
      .resize({ width: THUMB_WIDTH, height: THUMB_HEIGHT, fit: 'cover', position: 'attention' })
      .jpeg({ quality: THUMB_QUALITY, mozjpeg: true })
      .toBuffer();
    return { image, thumb, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message))
      throw badRequest(MESSAGES.imageTooManyPixels);
    throw badRequest(MESSAGES.imageUnreadable);
  }
}
