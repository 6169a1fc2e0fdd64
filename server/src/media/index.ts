import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES, LIMITS, MESSAGES, type ImageVariants } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { PhotoStorage, Visibility } from './photo-storage.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { JobExecutor } from '../jobs/index.js';
import { currentCampusId } from '../db/campus-scope.js';
import { DiskStorage } from './disk-storage.js';
import { processJpeg, tooLarge } from './image.js';
import { discardIncoming, receiveFile, type IncomingFile } from './incoming.js';
import { MEDIA_REMOVE_JOB, MEDIA_VARIANTS_JOB, type RemovePayload, type VariantsPayload } from './jobs.js';
import {
  STORED_NAME,
  isServedName,
  UPLOADS_PREFIX,
  keyFromUrl,
  uploadsDir,
  newImageKeys,
} from './storage.js';
import { ensureVariant, parseVariant } from './variants.js';

export { keyFromUrl, urlForKey, UPLOADS_PREFIX } from './storage.js';
export { MEDIA_REMOVE_JOB, queueVariantBackfill, registerMediaJobs, type RemovePayload } from './jobs.js';
export { VARIANT_WIDTHS, variantKeys } from './variants.js';
export { discardIncoming, receiveFile, type IncomingFile } from './incoming.js';
export { createPhotoStorage } from './create-storage.js';
export {
  MEDIA_ORPHANS_JOB,
  ORPHAN_GRACE_MS,
  queueOrphanSweep,
  scheduleOrphanSweeps,
  sweepWorkingFiles,
} from './orphans.js';
export type { PhotoStorage, Visibility } from './photo-storage.js';
export type { BucketTimeouts } from './bucket-storage.js';

/** What API answers need of the storage: the public address of an image and of its variants. */
export type PhotoLinks = Pick<PhotoStorage, 'publicUrl' | 'variants'>;

/** The URL of a stored public image (listing photo, thumbnail, avatar) of a campus; null for none. */
export function photoUrl(links: PhotoLinks, campusId: number, key: string | null | undefined): string | null {
  return key ? links.publicUrl(campusId, key) : null;
}

/**
 * The responsive variants of a stored photo for API answers, beside its `imageUrl`; null for no
 * photo. Every module that stores photo keys uses this.
 */
export function imageVariants(
  links: PhotoLinks,
  campusId: number,
  imageKey: string | null | undefined,
): ImageVariants | null {
  return imageKey ? links.variants(campusId, imageKey) : null;
}

type StorageContext = Pick<AppContext, 'config'> & Partial<Pick<AppContext, 'photoStorage'>>;

/** The app's storage; callers without an app (the demo seed, a few tests) get the disk's. */
function storageOf(ctx: StorageContext): PhotoStorage {
  return ctx.photoStorage ?? new DiskStorage(ctx.config.dataDir);
}

/**
 * The campus a stored image belongs to: the work's. A bucket keeps each campus's images under its
 * slug, so there it must be known; the disk's one folder does not need it (the seed stores without).
 */
function campusOf(storage: PhotoStorage): number {
  return storage.kind === 'disk' ? (currentCampusId() ?? 0) : requireCampusId();
}

/** A photo stored by storeJpeg: keys are bare names (`<uuid>.jpg`), URLs what a browser loads. */
export interface StoredImage {
  imageKey: string;
  thumbKey: string;
  imageUrl: string;
  thumbnailUrl: string;
}

/** A photo that passed every check, re-encoded, with the names it will have; nothing written yet. */
export interface PreparedImage {
  imageKey: string;
  thumbKey: string;
  image: Buffer;
  thumb: Buffer;
}

/** What an upload hands over: bytes in memory (seed, tests) or a file received to disk. */
export type ImageInput = Buffer | IncomingFile;

export interface StoreOptions {
  /**
   * Runs once the photo passed every check, with the names it will be stored under, before any
   * file is written: a caller commits its record of the photo here (with a durable job that removes
   * it if unused), so a crash while or after writing never leaves a file nobody knows about.
   */
  beforeWrite?: (keys: { imageKey: string; thumbKey: string }) => Promise<void>;
  /** Chat photos are `private`: a bucket serves them only through signed URLs. Default `public`. */
  visibility?: Visibility;
}

/**
 * Checks (JPEG by content, ≤ 10 MB -> else 413, pixel limit) and re-encodes (upright, ≤ 1600 px,
 * no metadata) a photo plus its thumbnail, and picks their random names. Writes nothing: the
 * caller records the names in its own transaction first (with queueVariants), then calls
 * writePrepared, so no file is ever served that no row knows about.
 */
export async function prepareJpeg(input: ImageInput): Promise<PreparedImage> {
  const { image, thumb } = await processJpeg(input);
  return { ...newImageKeys(), image, thumb };
}

/**
 * Writes a prepared photo under its names, after the caller committed its record. A failure
 * (disk full, folder unwritable) leaves neither file and is a 503 the person can retry; the
 * caller takes its record back (and queues removeLater for photos already written).
 */
export async function writePrepared(
  ctx: StorageContext & Partial<Pick<AppContext, 'logger'>>,
  prepared: PreparedImage,
  visibility: Visibility = 'public',
): Promise<StoredImage> {
  const storage = storageOf(ctx);
  const campusId = campusOf(storage);
  const { imageKey, thumbKey } = prepared;
  try {
    await storage.write(campusId, visibility, prepared);
  } catch (err) {
    ctx.logger?.error({ err, imageKey }, 'photo could not be written');
    throw new HttpError(503, MESSAGES.imageStoreFailed, ERROR_CODES.internal, { 'retry-after': '60' });
  }
  if (visibility === 'private' && storage.signsPrivateUrls) {
    const signed = await storage.signedUrl(campusId, imageKey);
    return {
      imageKey,
      thumbKey,
      imageUrl: signed,
      thumbnailUrl: await storage.signedUrl(campusId, thumbKey),
    };
  }
  return {
    imageKey,
    thumbKey,
    imageUrl: storage.publicUrl(campusId, imageKey),
    thumbnailUrl: storage.publicUrl(campusId, thumbKey),
  };
}

/**
 * Queues the responsive variants of a photo, in the transaction that records it: they take
 * seconds of CPU, so a job makes them right after (not in the request). If the file never gets
 * written, the job finds nothing to do.
 */
export async function queueVariants(
  ctx: Pick<AppContext, 'jobs'>,
  executor: JobExecutor,
  imageKey: string,
): Promise<void> {
  await ctx.jobs.enqueue<VariantsPayload>(
    executor,
    MEDIA_VARIANTS_JOB,
    { key: imageKey },
    { key: `${MEDIA_VARIANTS_JOB}:${imageKey}` },
  );
}

/**
 * Attempts of a job that removes stored images. Removing from disk never fails; a bucket may be
 * away for hours, and a removal given up on leaves objects nobody knows about: with retries an
 * hour apart at most (jobs/queue.ts), 30 attempts keep trying for about a day.
 */
export const REMOVAL_ATTEMPTS = 30;

/**
 * Removes stored files (with their variants) by a durable job, enqueued in the transaction that
 * deletes their row: once the row is gone the files go too, even if this process dies now.
 */
export async function removeLater(
  ctx: Pick<AppContext, 'jobs'>,
  executor: JobExecutor,
  ...keys: ReadonlyArray<string | null | undefined>
): Promise<void> {
  const wanted = [...new Set(keys.filter((k): k is string => typeof k === 'string' && STORED_NAME.test(k)))];
  if (wanted.length === 0) return;
  await ctx.jobs.enqueue<RemovePayload>(
    executor,
    MEDIA_REMOVE_JOB,
    { keys: wanted },
    { key: `${MEDIA_REMOVE_JOB}:${wanted[0]}`, maxAttempts: REMOVAL_ATTEMPTS },
  );
}

/**
 * Validates, re-encodes and stores a photo plus its thumbnail under random names (prepareJpeg,
 * then writePrepared). Callers with a database record pass `beforeWrite` to commit it before the
 * files are written. A stream is received to disk first (receiveFile), never held whole. With a
 * job queue the variants job is filed under the campus in scope, which must be there before any
 * file is written (a job outside any campus is refused: db/campus-scope.ts).
 */
export async function storeJpeg(
  ctx: StorageContext & Partial<Pick<AppContext, 'db' | 'jobs' | 'logger'>>,
  input: Buffer | IncomingFile | Readable,
  options: StoreOptions = {},
): Promise<StoredImage> {
  const queue = ctx.jobs && ctx.db ? { jobs: ctx.jobs, db: ctx.db } : undefined;
  if (queue) requireCampusId();
  let received: IncomingFile | null = null;
  let prepared: PreparedImage;
  try {
    let source: ImageInput;
    if (Buffer.isBuffer(input) || !isReadable(input)) source = input;
    else {
      received = await receiveFile(ctx.config.dataDir, input);
      if (!received) throw badRequest(MESSAGES.imageNotJpeg);
      source = received;
    }
    prepared = await prepareJpeg(source);
  } finally {
    await discardIncoming([received]);
  }
  const { imageKey, thumbKey } = prepared;
  await options.beforeWrite?.({ imageKey, thumbKey });
  const visibility = options.visibility ?? 'public';
  const stored = await writePrepared(ctx, prepared, visibility);
  // Without a queue (the demo seed), the backfill job of migration 009 or the uploads route makes
  // the variants later. A bucket's chat photos get none: no answer offers variants of them.
  const wantsVariants = visibility === 'public' || storageOf(ctx).kind === 'disk';
  if (queue && wantsVariants) await queueVariants(queue, queue.db.kysely, imageKey);
  return stored;
}

function isReadable(input: IncomingFile | Readable): input is Readable {
  return typeof (input as Readable).pipe === 'function';
}

/**
 * Deletes stored files by key (photo and/or thumbnail), in the work's campus. Missing files are
 * fine. Never throws: a bucket that fails is logged, and what stays is removed by the caller's
 * removal job (see the callers).
 */
export async function removeStoredImage(
  ctx: StorageContext & Partial<Pick<AppContext, 'logger'>>,
  ...keys: ReadonlyArray<string | null | undefined>
): Promise<void> {
  const storage = storageOf(ctx);
  const wanted = keys.filter((k): k is string => typeof k === 'string' && STORED_NAME.test(k));
  if (wanted.length === 0) return;
  try {
    await storage.remove(campusOf(storage), wanted);
  } catch (err) {
    ctx.logger?.warn({ err, keys: wanted }, 'stored images could not be removed');
  }
}

/**
 * The stored key a chat message's `url` names: the app's own `/uploads/<key>` form, or (bucket
 * mode) the signed URL POST /api/chats/upload answered, whose path ends in `/chat/<key>`. Null
 * for any other URL.
 */
export function storedKeyOfUrl(url: string): string | null {
  const own = keyFromUrl(url);
  if (own !== null) return own;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m = /\/chat\/([^/]+)$/.exec(path);
  return m && STORED_NAME.test(m[1]!) ? m[1]! : null;
}

/** Whether a URL points at a photo this app stored (e.g. a chat message's `url`). */
export function isStoredImageUrl(url: string): boolean {
  return storedKeyOfUrl(url) !== null;
}

/** Reads a stream (e.g. a @fastify/multipart file) into memory, refusing more than 10 MB with 413. */
export async function readLimited(
  stream: Readable,
  maxBytes: number = LIMITS.imageMaxBytes,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buf.length;
    if (total > maxBytes) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(buf);
  }
  // @fastify/multipart cuts a file at its fileSize limit and flags the stream as truncated.
  if ((stream as Readable & { truncated?: boolean }).truncated) throw tooLarge();
  return Buffer.concat(chunks);
}

/**
 * Serves GET /uploads/{name}: only names this module generates (JPEG, AVIF, WebP), cacheable forever
 * (names are never reused). Registered once, by the listings module, in its own encapsulated
 * context so the SPA's static plugin keeps its reply decorator.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.avif': 'image/avif',
  '.webp': 'image/webp',
};

export async function registerMediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // In a bucket, images are served by the bucket (or its CDN), never by the app.
  if (ctx.photoStorage.kind !== 'disk') return;
  // The static plugin checks its root at start-up; a fresh DATA_DIR has no uploads yet.
  const dir = uploadsDir(ctx.config.dataDir);
  await mkdir(dir, { recursive: true });
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: UPLOADS_PREFIX,
      decorateReply: false,
      wildcard: true,
      index: false,
      list: false,
      dotfiles: 'deny',
      redirect: false,
      cacheControl: false,
      allowedPath: (pathName) => isServedName(pathName.replace(/^\//, '')),
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        reply.header('content-type', CONTENT_TYPES[path.extname(filePath)] ?? 'image/jpeg');
      },
    });
    // A variant asked for before its job ran (just uploaded, backfill still going): made now,
    // from the stored JPEG, then served by the static route like any other file.
    scope.addHook('onRequest', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const name = request.url.slice(UPLOADS_PREFIX.length).split('?')[0] ?? '';
      const variant = parseVariant(name);
      if (!variant) return;
      try {
        await ensureVariant(dir, variant.photoKey, variant.width, variant.format);
      } catch (err) {
        request.log.warn({ err, name }, 'variant could not be made');
      }
    });
  });
}
