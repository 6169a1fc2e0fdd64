import type { ImageVariants } from '@campus/contract';
import { listFolder, removeFromFolder } from './disk-listing.js';
import type { ImagePair, PhotoStorage, StoredFile } from './photo-storage.js';
import { UPLOADS_PREFIX, removeKeys, uploadsDir, urlForKey, writeImagePair } from './storage.js';
import { ensureVariants, photosMissingVariants, variantTemplate } from './variants.js';

/**
 * Images in DATA_DIR/uploads, served by the app under /uploads/ (media/index.ts
 * registerMediaRoutes): exactly the behaviour before object storage existed. One folder for every
 * campus and both visibilities: the names are random, and campus data is the rows, not the files.
 */
export class DiskStorage implements PhotoStorage {
  readonly kind = 'disk';
  readonly signsPrivateUrls = false;
  readonly imageOrigins: readonly string[] = [];
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = uploadsDir(dataDir);
  }

  async write(_campusId: number, _visibility: unknown, pair: ImagePair): Promise<void> {
    await writeImagePair(this.dir, pair.image, pair.thumb, {
      imageKey: pair.imageKey,
      thumbKey: pair.thumbKey,
    });
  }

  remove(_campusId: number, keys: readonly string[]): Promise<void> {
    return removeKeys(this.dir, keys);
  }

  ensureVariants(_campusId: number, photoKey: string): Promise<void> {
    return ensureVariants(this.dir, photoKey);
  }

  async backfillVariants(after: string, limit: number): Promise<string | null> {
    const { keys, next } = await photosMissingVariants(this.dir, after, limit);
    for (const key of keys) await ensureVariants(this.dir, key);
    return next;
  }

  /** Every campus's files: the folder has no campus in it (the sweep checks every campus's rows). */
  listStored(
    _campusId: number,
    after: string,
    limit: number,
  ): Promise<{ files: StoredFile[]; next: string | null }> {
    return listFolder(this.dir, after, limit);
  }

  removeStored(_campusId: number, refs: readonly string[]): Promise<void> {
    return removeFromFolder(this.dir, refs);
  }

  publicUrl(_campusId: number, key: string): string {
    return urlForKey(key);
  }

  variants(_campusId: number, photoKey: string): ImageVariants | null {
    return variantTemplate(photoKey, UPLOADS_PREFIX);
  }

  signedUrl(_campusId: number, key: string): Promise<string> {
    return Promise.resolve(urlForKey(key));
  }

  close(): void {}
}
