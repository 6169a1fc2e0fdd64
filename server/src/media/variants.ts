import { randomUUID } from 'node:crypto';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageVariants } from '@campus/contract';
import sharp from 'sharp';

/**
 * Responsive variants of a stored photo: the same picture 320, 640 and 1280 px wide, in
 * AVIF and WebP, beside the JPEG (`<uuid>.jpg` → `<uuid>-w640.avif`, …). Browsers pick one through
 * `<picture>`/`srcset`; the JPEG stays the fallback and keeps its URL (`imageUrl`).
 *
 * Variants are made by a job right after the upload (encoding six files takes seconds of CPU, far
 * too long for the upload request), by the one-off backfill job for photos stored before variants
 * existed, and, should a browser ask for one that is not there yet, on demand by the uploads route.
 * Names are derived from the photo's key, so no table records them and every module storing photo
 * keys (listings, listing photos, chat) gets them without a schema change.
 */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** `<uuid>.jpg` (a photo, not a thumbnail). */
const PHOTO_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jpg$/;
/** `<uuid>-w<width>.<format>`. */
export const VARIANT_NAME =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-w(320|640|1280)\.(avif|webp)$/;

/** Encoder settings: AVIF at effort 2 keeps a 1280 px encode around a second of one core. */
const ENCODE = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 72, effort: 4 },
} as const;

export function isPhotoKey(key: string): boolean {
  return PHOTO_KEY.test(key);
}

export function variantKey(photoKey: string, width: VariantWidth, format: VariantFormat): string | null {
  const m = PHOTO_KEY.exec(photoKey);
  return m ? `${m[1]}-w${width}.${format}` : null;
}

/** Every variant file name of a photo key (empty for a thumbnail or a malformed key). */
export function variantKeys(photoKey: string): string[] {
  if (!isPhotoKey(photoKey)) return [];
  return VARIANT_WIDTHS.flatMap((w) => VARIANT_FORMATS.map((f) => variantKey(photoKey, w, f)!));
}

/** The API's description of a photo's variants (contract `ImageVariants`), under `prefix`. */
export function variantTemplate(photoKey: string, prefix: string): ImageVariants | null {
  const m = PHOTO_KEY.exec(photoKey);
  if (!m) return null;
  return {
    url: `${prefix}${m[1]}-w{width}.{format}`,
    widths: [...VARIANT_WIDTHS],
    formats: [...VARIANT_FORMATS],
  };
}

/** Parses a variant file name into the photo it comes from, its width and format. */
export function parseVariant(
  name: string,
): { photoKey: string; width: VariantWidth; format: VariantFormat } | null {
  const m = VARIANT_NAME.exec(name);
  if (!m) return null;
  return { photoKey: `${m[1]}.jpg`, width: Number(m[2]) as VariantWidth, format: m[3] as VariantFormat };
}

/** Encodes one variant from a stored JPEG (already upright and stripped), exactly `width` wide. */
export function encodeVariant(input: Buffer, width: VariantWidth, format: VariantFormat): Promise<Buffer> {
  return sharp(input).resize({ width }).toFormat(format, ENCODE[format]).toBuffer();
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Encodes one variant from the stored JPEG (already upright and stripped) and writes it atomically
 * (temporary name, then rename), so a reader never sees half a file. Exactly `width` wide: the
 * `w` descriptor of the srcset must be true. Returns false when the photo is gone.
 */
async function writeVariant(dir: string, photoKey: string, width: VariantWidth, format: VariantFormat) {
  const source = path.join(dir, photoKey);
  let input: Buffer;
  try {
    input = await readFile(source);
  } catch {
    return false;
  }
  const data = await encodeVariant(input, width, format);
  const name = variantKey(photoKey, width, format)!;
  const target = path.join(dir, name);
  // Written beside the uploads folder (same file system, so the rename is atomic) rather than in
  // it, so the folder only ever holds complete files.
  const tempDir = `${dir}.tmp`;
  await mkdir(tempDir, { recursive: true });
  const temp = path.join(tempDir, `${name}.${process.pid}.${randomUUID()}`);
  try {
    await writeFile(temp, data);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  // The photo was deleted meanwhile (listing removed): do not leave its variant behind.
  if (!(await exists(source))) await rm(target, { force: true });
  return true;
}

/** Same variant asked twice at once (on-demand route, job): encode it once. */
const inFlight = new Map<string, Promise<boolean>>();

/** Makes one variant unless it exists. Resolves false when the photo does not exist. */
export function ensureVariant(
  dir: string,
  photoKey: string,
  width: VariantWidth,
  format: VariantFormat,
): Promise<boolean> {
  const name = variantKey(photoKey, width, format);
  if (!name) return Promise.resolve(false);
  const running = inFlight.get(name);
  if (running) return running;
  const job = (async () => {
    if (await exists(path.join(dir, name))) return true;
    return writeVariant(dir, photoKey, width, format);
  })().finally(() => inFlight.delete(name));
  inFlight.set(name, job);
  return job;
}

/** Makes every missing variant of a photo, smallest first (those are asked for most). */
export async function ensureVariants(dir: string, photoKey: string): Promise<void> {
  for (const width of VARIANT_WIDTHS) {
    for (const format of VARIANT_FORMATS) {
      if (!(await ensureVariant(dir, photoKey, width, format))) return;
    }
  }
}

/**
 * Photos in the uploads folder (name order, after `after`) that still lack a variant: at most
 * `limit`, and `next`, the cursor to continue from, when more may remain.
 */
export async function photosMissingVariants(
  dir: string,
  after: string,
  limit: number,
): Promise<{ keys: string[]; next: string | null }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { keys: [], next: null };
  }
  const present = new Set(names);
  const keys: string[] = [];
  for (const key of names.filter((n) => isPhotoKey(n) && n > after).sort()) {
    if (!variantKeys(key).some((v) => !present.has(v))) continue;
    if (keys.length === limit) return { keys, next: keys[keys.length - 1]! };
    keys.push(key);
  }
  return { keys, next: null };
}
