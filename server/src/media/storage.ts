import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VARIANT_NAME, parseVariant, variantKeys } from './variants.js';

/** URL prefix under which stored images are served. */
export const UPLOADS_PREFIX = '/uploads/';

/** Stored names are random UUIDs, so a name can never climb out of the uploads folder. */
export const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(-thumb)?\.jpg$/;

/** Names served under /uploads/: stored photos and thumbnails, and the photos' variants. */
export function isServedName(name: string): boolean {
  return STORED_NAME.test(name) || VARIANT_NAME.test(name);
}

/**
 * The key a row would name for a stored file: a photo's or thumbnail's own name, a variant's
 * photo; null for a name this app does not store.
 */
export function ownerKeyOf(name: string): string | null {
  if (STORED_NAME.test(name)) return name;
  return parseVariant(name)?.photoKey ?? null;
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function urlForKey(key: string): string {
  return `${UPLOADS_PREFIX}${key}`;
}

export function keyFromUrl(url: string): string | null {
  if (!url.startsWith(UPLOADS_PREFIX)) return null;
  const key = url.slice(UPLOADS_PREFIX.length);
  return STORED_NAME.test(key) ? key : null;
}

/** Writes the photo and its thumbnail under fresh random names; on any failure neither remains. */
export function newImageKeys(): { imageKey: string; thumbKey: string } {
  const id = randomUUID();
  return { imageKey: `${id}.jpg`, thumbKey: `${id}-thumb.jpg` };
}

export async function writeImagePair(
  dir: string,
  image: Buffer,
  thumb: Buffer,
  keys: { imageKey: string; thumbKey: string } = newImageKeys(),
): Promise<{ imageKey: string; thumbKey: string }> {
  await mkdir(dir, { recursive: true });
  const { imageKey, thumbKey } = keys;
  try {
    await writeFile(path.join(dir, imageKey), image, { flag: 'wx' });
    await writeFile(path.join(dir, thumbKey), thumb, { flag: 'wx' });
  } catch (err) {
    await removeKeys(dir, [imageKey, thumbKey]);
    throw err;
  }
  return { imageKey, thumbKey };
}

/**
 * Removes stored files by key, with a photo's responsive variants; unknown or malformed keys are
 * ignored. Never throws.
 */
export async function removeKeys(dir: string, keys: ReadonlyArray<string | null | undefined>): Promise<void> {
  await Promise.all(
    keys
      .filter((k): k is string => typeof k === 'string' && STORED_NAME.test(k))
      .flatMap((k) => [k, ...variantKeys(k)])
      .map((k) => rm(path.join(dir, k), { force: true }).catch(() => undefined)),
  );
}
