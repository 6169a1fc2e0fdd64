import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ImageVariants } from '@campus/contract';
import type { BucketConfig } from './bucket-config.js';
import type { ImagePair, PhotoStorage, StoredFile, Visibility } from './photo-storage.js';
import { STORED_NAME, ownerKeyOf } from './storage.js';
import {
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  encodeVariant,
  isPhotoKey,
  variantKey,
  variantKeys,
  variantTemplate,
  type VariantFormat,
  type VariantWidth,
} from './variants.js';

/**
 * Bounds of one call to the bucket. A bucket that is down refuses the connection at once; one
 * that hangs is cut after `requestMs`; the SDK tries twice; and a whole operation (both
 * tries, backoff included) is aborted after `operationMs`, so an upload answers 503 within
 * seconds rather than holding the student's request (and their upload slot) for minutes.
 */
export const BUCKET_TIMEOUTS: BucketTimeouts = {
  connectionMs: 2_000,
  requestMs: 5_000,
  operationMs: 8_000,
  attempts: 2,
};

export interface BucketTimeouts {
  connectionMs: number;
  requestMs: number;
  operationMs: number;
  attempts: number;
}

/** Signed URLs of chat photos: at most 15 minutes (features.md §F). */
export const SIGNED_URL_MAX_SECONDS = 15 * 60;
/**
 * Signatures are dated to the start of a 5-minute window, so the same photo keeps the same URL for
 * five minutes (the browser's cache works across a refetch of the history) and a URL handed out
 * stays valid 10 to 15 minutes.
 */
const SIGNING_WINDOW_MS = 5 * 60_000;

/** Public images never change under a key: a year, immutable (browsers and CDNs keep them). */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';
/**
 * Chat photos: only the browser that was handed the signed URL keeps a copy (no shared cache), and
 * keeps it like any photo: a room reopened from the web app's cache after the URL expired still
 * shows what this browser already loaded (as on disk, where chat photos are cached a year).
 */
const PRIVATE_CACHE = 'private, max-age=31536000, immutable';

const CONTENT_TYPES: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

/** `{slug}/photos/<uuid>.jpg`, a public photo (not a thumbnail), as the backfill lists them. */
const LISTED_PHOTO = /^([a-z0-9][a-z0-9-]*)\/photos\/([0-9a-f-]{36}\.jpg)$/;

/** Folders under a campus: public images and chat photos apart, so a bucket policy can tell them. */
const FOLDER: Record<Visibility, string> = { public: 'photos', private: 'chat' };

/** Under a campus's prefix: `photos/<name>` or `chat/<name>`, the only objects the sweep touches. */
const CAMPUS_OBJECT = /^(?:photos|chat)\/([^/]+)$/;

/** The most keys ListObjectsV2 answers and DeleteObjects takes at once. */
const BUCKET_PAGE = 1000;

function notFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

/**
 * Images in an S3-compatible bucket under `{campus slug}/photos/…` (listing photos, their
 * thumbnails and variants, avatars: public, served from PHOTO_BASE_URL) and `{campus slug}/chat/…`
 * (chat photos: private, handed out through signed URLs). Uploads go through the app, so the
 * bucket needs no CORS; browsers only GET from it.
 */
export class BucketStorage implements PhotoStorage {
  readonly kind = 'bucket';
  readonly signsPrivateUrls = true;
  readonly client: S3Client;
  imageOrigins: readonly string[];
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly config: BucketConfig,
    private readonly slugOf: (campusId: number) => string,
    private readonly clock: () => number = Date.now,
    private readonly timeouts: BucketTimeouts = BUCKET_TIMEOUTS,
  ) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      maxAttempts: timeouts.attempts,
      requestHandler: {
        connectionTimeout: timeouts.connectionMs,
        requestTimeout: timeouts.requestMs,
        throwOnRequestTimeout: true,
      },
      // Checksums only where S3 requires them: S3-compatible services (MinIO, Ceph, R2…) differ in
      // which of the newer checksum headers they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.imageOrigins = [new URL(config.photoBaseUrl).origin];
  }

  /**
   * Learns the origin of signed URLs (the path-style endpoint, or the bucket's AWS host) for the
   * CSP, from a URL the SDK signs exactly as it will sign chat photos. Signing contacts no bucket;
   * if no credentials can be found yet (an instance role not ready), the origins the SDK uses for
   * the endpoint or the AWS region are named instead.
   */
  async init(): Promise<this> {
    let origins: string[];
    try {
      const probe = await getSignedUrl(
        this.client,
        new GetObjectCommand({ Bucket: this.config.bucket, Key: 'probe' }),
        { expiresIn: 60 },
      );
      origins = [new URL(probe).origin];
    } catch {
      const { endpoint, bucket, region } = this.config;
      origins = endpoint
        ? [new URL(endpoint).origin]
        : [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
    }
    this.imageOrigins = [...new Set([...this.imageOrigins, ...origins])];
    return this;
  }

  objectKey(campusId: number, visibility: Visibility, key: string): string {
    return `${this.slugOf(campusId)}/${FOLDER[visibility]}/${key}`;
  }

  /** Every call: the whole operation (its tries included) is cut after `operationMs`. */
  private bounded() {
    return { abortSignal: AbortSignal.timeout(this.timeouts.operationMs) };
  }

  private put(key: string, body: Buffer, contentType: string, visibility: Visibility) {
    return this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
        CacheControl: visibility === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE,
      }),
      this.bounded(),
    );
  }

  /**
   * Puts one stored file (a photo, thumbnail or variant by its bare name) of a campus: the copy of
   * DATA_DIR/uploads into the bucket (copy-to-bucket.ts).
   */
  async putFile(campusId: number, visibility: Visibility, name: string, body: Buffer): Promise<void> {
    const type = name.endsWith('.avif') ? 'image/avif' : name.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
    await this.put(this.objectKey(campusId, visibility, name), body, type, visibility);
  }

  async write(campusId: number, visibility: Visibility, pair: ImagePair): Promise<void> {
    // One after the other: if the bucket fails at the second, the caller's removal job (or the
    // chat photo's expiry job) deletes the first once the bucket is back.
    await this.put(this.objectKey(campusId, visibility, pair.imageKey), pair.image, 'image/jpeg', visibility);
    await this.put(this.objectKey(campusId, visibility, pair.thumbKey), pair.thumb, 'image/jpeg', visibility);
  }

  async remove(campusId: number, keys: readonly string[]): Promise<void> {
    const objects = keys
      .filter((k) => STORED_NAME.test(k))
      .flatMap((k) => [
        this.objectKey(campusId, 'public', k),
        this.objectKey(campusId, 'private', k),
        ...variantKeys(k).map((v) => this.objectKey(campusId, 'public', v)),
      ]);
    await this.deleteObjects(objects);
  }

  /** Deletes objects by full key, 1,000 per request; missing ones are fine, any other refusal throws. */
  private async deleteObjects(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += BUCKET_PAGE) {
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: keys.slice(i, i + BUCKET_PAGE).map((Key) => ({ Key })), Quiet: true },
        }),
        this.bounded(),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0)
        throw new Error(`bucket refused to delete ${failed.length} object(s): ${failed[0]!.Code}`);
    }
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }), this.bounded());
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
  }

  private async read(key: string): Promise<Buffer | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: key }),
        this.bounded(),
      );
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  /** Makes one variant unless it exists; false when the photo is gone. Encoded once at a time. */
  private ensureVariant(folder: string, photoKey: string, width: VariantWidth, format: VariantFormat) {
    const name = `${folder}${variantKey(photoKey, width, format)}`;
    const running = this.inFlight.get(name);
    if (running) return running;
    const job = (async () => {
      if (await this.exists(name)) return true;
      const source = await this.read(`${folder}${photoKey}`);
      if (!source) return false;
      await this.put(name, await encodeVariant(source, width, format), CONTENT_TYPES[format], 'public');
      // The photo was deleted meanwhile (listing removed): do not leave its variant behind.
      if (!(await this.exists(`${folder}${photoKey}`))) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: [{ Key: name }] } }),
          this.bounded(),
        );
        return false;
      }
      return true;
    })().finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, job);
    return job;
  }

  private async variantsIn(folder: string, photoKey: string): Promise<void> {
    if (!isPhotoKey(photoKey)) return;
    for (const width of VARIANT_WIDTHS) {
      for (const format of VARIANT_FORMATS) {
        if (!(await this.ensureVariant(folder, photoKey, width, format))) return;
      }
    }
  }

  ensureVariants(campusId: number, photoKey: string): Promise<void> {
    return this.variantsIn(`${this.slugOf(campusId)}/${FOLDER.public}/`, photoKey);
  }

  async backfillVariants(after: string, limit: number): Promise<string | null> {
    // A photo's variants (`<uuid>-w….avif`) sort just before it (`<uuid>.jpg`), so the names of
    // this page and the one before tell which are missing; a photo at a page boundary at worst
    // gets its variants checked one by one (ensureVariant skips those that exist).
    let seen = new Set<string>();
    let token: string | undefined;
    let done = 0;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          ...(token ? { ContinuationToken: token } : after ? { StartAfter: after } : {}),
          MaxKeys: 1000,
        }),
        this.bounded(),
      );
      const names = (page.Contents ?? []).map((o) => o.Key ?? '');
      const present = new Set([...seen, ...names]);
      for (const name of names) {
        const m = LISTED_PHOTO.exec(name);
        if (!m) continue;
        const folder = `${m[1]}/${FOLDER.public}/`;
        if (variantKeys(m[2]!).every((v) => present.has(`${folder}${v}`))) continue;
        await this.variantsIn(folder, m[2]!);
        done += 1;
        if (done === limit) return name;
      }
      if (!page.IsTruncated || !page.NextContinuationToken) return null;
      token = page.NextContinuationToken;
      seen = new Set(names);
    }
  }

  /** The stored images of the campus's prefix, one ListObjectsV2 page after `after`. */
  async listStored(
    campusId: number,
    after: string,
    limit: number,
  ): Promise<{ files: StoredFile[]; next: string | null }> {
    const prefix = `${this.slugOf(campusId)}/`;
    const page = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.config.bucket,
        Prefix: prefix,
        MaxKeys: Math.min(limit, BUCKET_PAGE),
        ...(after.startsWith(prefix) ? { StartAfter: after } : {}),
      }),
      this.bounded(),
    );
    const files: StoredFile[] = [];
    let last: string | undefined;
    for (const object of page.Contents ?? []) {
      if (!object.Key) continue;
      last = object.Key;
      const name = CAMPUS_OBJECT.exec(object.Key.slice(prefix.length))?.[1];
      const key = name === undefined ? null : ownerKeyOf(name);
      // No date: treated as just written, so never swept.
      if (key !== null && object.LastModified)
        files.push({ ref: object.Key, key, modifiedAt: object.LastModified.getTime() });
    }
    return { files, next: page.IsTruncated && last ? last : null };
  }

  async removeStored(campusId: number, refs: readonly string[]): Promise<void> {
    const prefix = `${this.slugOf(campusId)}/`;
    const foreign = refs.find((r) => {
      const name = r.startsWith(prefix) ? CAMPUS_OBJECT.exec(r.slice(prefix.length))?.[1] : undefined;
      return name === undefined || ownerKeyOf(name) === null;
    });
    if (foreign !== undefined) throw new Error(`not a stored image of campus ${prefix}: ${foreign}`);
    await this.deleteObjects(refs);
  }

  publicUrl(campusId: number, key: string): string {
    return `${this.config.photoBaseUrl}/${this.objectKey(campusId, 'public', key)}`;
  }

  variants(campusId: number, photoKey: string): ImageVariants | null {
    return variantTemplate(
      photoKey,
      `${this.config.photoBaseUrl}/${this.slugOf(campusId)}/${FOLDER.public}/`,
    );
  }

  signedUrl(campusId: number, key: string): Promise<string> {
    const now = this.clock();
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(campusId, 'private', key) }),
      {
        expiresIn: SIGNED_URL_MAX_SECONDS,
        signingDate: new Date(now - (now % SIGNING_WINDOW_MS)),
      },
    );
  }

  close(): void {
    this.client.destroy();
  }
}
