import type { ImageVariants } from '@campus/contract';

/**
 * Who may fetch a stored image: `public` — anyone holding its unguessable URL (listing photos and
 * their variants, avatars); `private` — only through a short-lived signed URL the app hands to
 * the two students of a room (chat photos). On disk both live in DATA_DIR/uploads as before.
 */
export type Visibility = 'public' | 'private';

/** A photo and its thumbnail, re-encoded, under the random names they will be stored as. */
export interface ImagePair {
  imageKey: string;
  thumbKey: string;
  image: Buffer;
  thumb: Buffer;
}

/** A stored file as the orphan sweep sees it (media/orphans.ts). */
export interface StoredFile {
  /** Where it is, for removeStored (and the sweep's cursor): opaque to the caller. */
  ref: string;
  /**
   * The key a row would name for it: the file's own name for a photo or thumbnail, the photo's
   * (`<uuid>.jpg`) for a variant, which no row names itself.
   */
  key: string;
  /** Last written, epoch ms (the file system's or the bucket's clock). */
  modifiedAt: number;
}

/**
 * Where stored images live: DATA_DIR/uploads (disk-storage.ts, the default) or an S3-compatible
 * bucket under `{campus slug}/…` (bucket-storage.ts). Chosen once in app.ts and handed to every
 * module through the context. Keys in the database are the same bare `<uuid>.jpg` names in both
 * modes; the campus comes from the work's campus (every caller runs in one) so a key never needs
 * rewriting when the storage changes.
 */
export interface PhotoStorage {
  readonly kind: 'disk' | 'bucket';
  /**
   * Writes a photo and its thumbnail. Throws when the storage fails; then the caller takes its
   * record back and queues the removal of whatever was written (removeLater), which also covers
   * an object the bucket accepted before it failed.
   */
  write(campusId: number, visibility: Visibility, pair: ImagePair): Promise<void>;
  /**
   * Removes stored images by key, with a photo's variants, whatever their visibility; unknown or
   * malformed keys are ignored, missing ones are fine (a repeat is harmless). Throws when the
   * storage cannot be reached, so the removal job runs again later.
   */
  remove(campusId: number, keys: readonly string[]): Promise<void>;
  /** Makes every missing variant of a public photo (nothing when the photo is gone). */
  ensureVariants(campusId: number, photoKey: string): Promise<void>;
  /**
   * One step of the variant backfill: makes the variants of at most `limit` photos (any campus)
   * that lack some, after the cursor `after` ('' = the start); answers the cursor to continue
   * from, or null when the sweep is done.
   */
  backfillVariants(after: string, limit: number): Promise<string | null>;
  /**
   * One page of the orphan sweep: at most `limit` stored images of a campus (a bucket's
   * `{slug}/photos/` and `{slug}/chat/`; on disk the one folder, every campus's), in `ref` order
   * after `after` ('' = the start), and the cursor to continue from, or null at the end. Only files
   * named as this app names them are listed: nothing else in the bucket or folder is ever touched.
   * Throws when the storage cannot be reached.
   */
  listStored(
    campusId: number,
    after: string,
    limit: number,
  ): Promise<{ files: StoredFile[]; next: string | null }>;
  /**
   * Removes exactly these files (refs from listStored of the same campus; a ref outside the
   * campus is refused), missing ones being fine. Throws when the storage cannot be reached.
   */
  removeStored(campusId: number, refs: readonly string[]): Promise<void>;
  /** The URL a browser fetches a public image at. */
  publicUrl(campusId: number, key: string): string;
  /** The API's description of a public photo's variants (contract ImageVariants). */
  variants(campusId: number, photoKey: string): ImageVariants | null;
  /**
   * Private images (chat photos) are handed out through signed URLs: true in bucket mode, where
   * `signedUrl` must be called for every answer that carries one. On disk they are served by key,
   * like public ones (the key is only ever shown to the room).
   */
  readonly signsPrivateUrls: boolean;
  /** A URL valid for at most 15 minutes for a private image (bucket mode). */
  signedUrl(campusId: number, key: string): Promise<string>;
  /** Origins browsers load images from besides the app's own (the CSP's img-src). */
  readonly imageOrigins: readonly string[];
  close(): void;
}
