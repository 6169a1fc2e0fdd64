// The photo types students pick and what they are told about them. A module of its own: only the
// pickers (lazy chunks) use it, so none of it lands in the JavaScript a first visit downloads.

/**
 * Photos a student may pick (listing form, chat, profile photo). The browser converts every one
 * to a JPEG of at most 1600 px before upload (IMAGE_COMPRESSION), so the server still takes JPEG
 * only. `everywhere: false` marks a type only some browsers can decode (HEIC/HEIF: Safari), whose
 * conversion may fail elsewhere: the picker then says so (PHOTO_MESSAGES.convertFailed).
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

/** What the pickers say about a photo they cannot take. */
export const PHOTO_MESSAGES = {
  // The pickers' check (PHOTO_PICK_TYPES): the browser converts each of these to JPEG before upload.
  typeNotAccepted: 'Only JPG, PNG, WebP or HEIC photos can be added',
  // A photo this browser cannot open (HEIC outside Safari), so it cannot be converted to JPEG.
  convertFailed: (name: string) =>
    `"${name}" cannot be opened in this browser. Choose a JPEG or PNG photo instead.`,
} as const;
