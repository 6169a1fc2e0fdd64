import {
  IMAGE_COMPRESSION,
  isAcceptedPhoto,
  isJpegFile,
  LIMITS,
  mayNotConvert,
  MESSAGES,
  PHOTO_MESSAGES,
} from '@campus/contract';

/**
 * Compresses a photo in the browser before upload (spec §9: at most 1600 px on either side,
 * initial quality 0.8, up to 4 iterations, JPEG). The library is loaded on demand, so it is not
 * part of the initial JavaScript; it runs on the main thread (no worker fetched from a CDN).
 * PNG, WebP and HEIC come out as JPEG too (the library draws them on a canvas), so the server
 * only ever receives JPEG.
 */
export async function compressPhoto(file: File): Promise<File> {
  const { default: imageCompression } = await import('browser-image-compression');
  const out = await imageCompression(file, {
    maxWidthOrHeight: IMAGE_COMPRESSION.maxWidthOrHeight,
    initialQuality: IMAGE_COMPRESSION.initialQuality,
    maxIteration: IMAGE_COMPRESSION.maxIteration,
    fileType: IMAGE_COMPRESSION.fileType,
    // Iterations only run above this size; a 1600 px JPEG at 0.8 is usually far below it.
    maxSizeMB: 2,
    useWebWorker: false,
  });
  if (out.type !== IMAGE_COMPRESSION.fileType) throw new Error(`Conversion gave ${out.type || 'no type'}`);
  // "IMG_0042.png" converted is a JPEG: name it so (the server reads the bytes, people read names).
  const name = isJpegFile(file) ? file.name : file.name.replace(/(\.[^.]*)?$/, '.jpg');
  return name === out.name ? out : new File([out], name, { type: out.type, lastModified: file.lastModified });
}

/**
 * The photo as it goes up: compressed to JPEG. If that fails, a JPEG small enough goes up as it is
 * (the server checks, re-encodes and strips it anyway); any other photo cannot go up at all, and
 * the error says what to choose instead — never a silent failure or the server's "JPEG only".
 */
export async function preparePhoto(file: File): Promise<Blob> {
  try {
    return await compressPhoto(file);
  } catch (error) {
    console.error('Photo compression failed', error);
    if (!isJpegFile(file)) throw new Error(PHOTO_MESSAGES.convertFailed(file.name));
    if (file.size > LIMITS.imageMaxBytes) throw new Error(MESSAGES.listingPhotoUnreadable);
    return file;
  }
}

/**
 * Whether this browser can open the photo. Asked at pick time only for types not every browser
 * decodes (HEIC outside Safari), so the student hears at once instead of when saving.
 */
export async function canOpenPhoto(file: File): Promise<boolean> {
  if (!mayNotConvert(file)) return true;
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img.naturalWidth > 0;
  } catch {
    return false;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Splits picked files into the ones to keep and the messages for the rest: types the app does not
 * take, and photos this browser cannot open.
 */
export async function checkPickedPhotos(
  files: readonly File[],
): Promise<{ photos: File[]; problems: string[] }> {
  const photos: File[] = [];
  const problems: string[] = [];
  let wrongType = false;
  for (const file of files) {
    if (!isAcceptedPhoto(file)) wrongType = true;
    else if (await canOpenPhoto(file)) photos.push(file);
    else problems.push(PHOTO_MESSAGES.convertFailed(file.name));
  }
  if (wrongType) problems.unshift(PHOTO_MESSAGES.typeNotAccepted);
  return { photos, problems };
}
