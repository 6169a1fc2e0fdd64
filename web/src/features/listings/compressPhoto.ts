import { IMAGE_COMPRESSION } from '@campus/contract';

/**
 * Compresses a photo in the browser before upload (spec §9: at most 1600 px on either side,
 * initial quality 0.8, up to 4 iterations, JPEG). The library is loaded on demand, so it is not
 * part of the initial JavaScript; it runs on the main thread (no worker fetched from a CDN).
 */
export async function compressPhoto(file: File): Promise<File> {
  const { default: imageCompression } = await import('browser-image-compression');
  return imageCompression(file, {
    maxWidthOrHeight: IMAGE_COMPRESSION.maxWidthOrHeight,
    initialQuality: IMAGE_COMPRESSION.initialQuality,
    maxIteration: IMAGE_COMPRESSION.maxIteration,
    fileType: IMAGE_COMPRESSION.fileType,
    // Iterations only run above this size; a 1600 px JPEG at 0.8 is usually far below it.
    maxSizeMB: 2,
    useWebWorker: false,
  });
}

export function isJpeg(file: File): boolean {
  return file.type === 'image/jpeg' || /\.jpe?g$/i.test(file.name);
}
