/**
 * Responsive photo variants. Every stored listing photo also exists 320, 640 and 1280 px
 * wide in AVIF and WebP. API answers describe them compactly beside the JPEG's `imageUrl` (which
 * stays the fallback for browsers that take neither); `variantSrcset` builds a `srcset` from that.
 */
export const IMAGE_VARIANT_FORMATS = ['avif', 'webp'] as const;
export type ImageVariantFormat = (typeof IMAGE_VARIANT_FORMATS)[number];

export interface ImageVariants {
  /** URL template with `{width}` and `{format}`, e.g. "/uploads/<uuid>-w{width}.{format}". */
  url: string;
  /** Widths available, in px, ascending (each file is exactly that wide). */
  widths: number[];
  formats: ImageVariantFormat[];
}

/** `srcset` of one format, e.g. "/uploads/<uuid>-w320.avif 320w, /uploads/<uuid>-w640.avif 640w, …". */
export function variantSrcset(variants: ImageVariants, format: ImageVariantFormat): string {
  return variants.widths
    .map((w) => `${variants.url.replace('{width}', String(w)).replace('{format}', format)} ${w}w`)
    .join(', ');
}

/**
 * Photos a student may pick (listing form, chat, profile photo). The browser converts every one
 * to a JPEG of at most 1600 px before upload (IMAGE_COMPRESSION), so the server still takes JPEG
 * only. `everywhere: false` marks a type only some browsers can decode (HEIC/HEIF: Safari), whose
 * conversion may fail elsewhere: the picker then says so (MESSAGES.imageConvertFailed).
 */
export const PHOTO_PICK_TYPES = [
  { mime: 'image/jpeg', extensions: ['.jpg', '.jpeg'], everywhere: true },
  { mime: 'image/png', extensions: ['.png'], everywhere: true },
  { mime: 'image/webp', extensions: ['.webp'], everywhere: true },
  { mime: 'image/heic', extensions: ['.heic'], everywhere: false },
  { mime: 'image/heif', extensions: ['.heif'], everywhere: false },
] as const;

/** The file input's `accept`: every type by MIME type and by extension (some systems give no type). */
export const PHOTO_ACCEPT = PHOTO_PICK_TYPES.flatMap((t) => [t.mime, ...t.extensions]).join(',');

type PickedFile = { readonly type: string; readonly name: string };

function pickType(file: PickedFile) {
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  // A MIME type, when there is one, decides; an empty one (HEIC on many systems) falls back to the name.
  if (type !== '') return PHOTO_PICK_TYPES.find((t) => t.mime === type);
  return PHOTO_PICK_TYPES.find((t) => t.extensions.some((ext) => name.endsWith(ext)));
}

/** Whether a picked file is a photo type the app takes (and converts to JPEG before upload). */
export function isAcceptedPhoto(file: PickedFile): boolean {
  return pickType(file) !== undefined;
}

/** Whether a picked photo is of a type not every browser can decode (so its conversion may fail). */
export function mayNotConvert(file: PickedFile): boolean {
  return pickType(file)?.everywhere === false;
}

/** Whether a file already is a JPEG (what the server takes as it is). */
export function isJpegFile(file: PickedFile): boolean {
  return pickType(file)?.mime === 'image/jpeg';
}
