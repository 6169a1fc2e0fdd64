import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import { LIMITS, type ImageVariants } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { processJpeg, tooLarge } from './image.js';
import { MEDIA_VARIANTS_JOB, type VariantsPayload } from './jobs.js';
import {
  isServedName,
  UPLOADS_PREFIX,
  keyFromUrl,
  removeKeys,
  uploadsDir,
  urlForKey,
  newImageKeys,
  writeImagePair,
} from './storage.js';

import { ensureVariant, parseVariant, variantTemplate } from './variants.js';

export { keyFromUrl, urlForKey, UPLOADS_PREFIX } from './storage.js';
export { MEDIA_REMOVE_JOB, type RemovePayload } from './jobs.js';
export { VARIANT_WIDTHS, variantKeys } from './variants.js';

/**
 * The responsive variants of a stored photo for API answers, beside its `imageUrl`; null for no
 * photo. Every module that stores photo keys uses this.
 */
export function imageVariants(imageKey: string | null | undefined): ImageVariants | null {
  return imageKey ? variantTemplate(imageKey, UPLOADS_PREFIX) : null;
}

/** A photo stored by storeJpeg: keys are file names in DATA_DIR/uploads, URLs are served by the app. */
export interface StoredImage {
  imageKey: string;
  thumbKey: string;
  imageUrl: string;
  thumbnailUrl: string;
}

export interface StoreOptions {
  /**
   * Runs once the photo passed every check, with the names it will be stored under, before any
   * file is written: a caller commits its record of the photo here (with a durable job that removes
   * it if unused), so a crash while or after writing never leaves a file nobody knows about.
   */
  beforeWrite?: (keys: { imageKey: string; thumbKey: string }) => Promise<void>;
}

/**
 * Validates (JPEG by content, ≤ 10 MB -> else 413, pixel limit), re-encodes (upright, ≤ 1600 px,
 * no metadata) and stores a photo plus its thumbnail under random names. Files are written only
 * after every check passed. Callers that then fail to save their database row must call
 * removeStoredImage, so no orphan file stays behind.
 */
export async function storeJpeg(
  ctx: Pick<AppContext, 'config'> & Partial<Pick<AppContext, 'db' | 'jobs'>>,
  input: Buffer | Readable,
  options: StoreOptions = {},
): Promise<StoredImage> {
  const bytes = Buffer.isBuffer(input) ? input : await readLimited(input);
  const { image, thumb } = await processJpeg(bytes);
  const keys = newImageKeys();
  await options.beforeWrite?.(keys);
  const { imageKey, thumbKey } = await writeImagePair(uploadsDir(ctx.config.dataDir), image, thumb, keys);
  // Responsive variants take seconds of CPU: a job makes them right after (not in this request).
  // If the caller then fails and removes the photo, the job finds nothing to do. Without a queue
  // (the demo seed), the backfill job of migration 009 or the uploads route makes them later.
  if (ctx.jobs && ctx.db) {
    await ctx.jobs.enqueue<VariantsPayload>(
      ctx.db.kysely,
      MEDIA_VARIANTS_JOB,
      { key: imageKey },
      { key: `${MEDIA_VARIANTS_JOB}:${imageKey}` },
    );
  }
  return { imageKey, thumbKey, imageUrl: urlForKey(imageKey), thumbnailUrl: urlForKey(thumbKey) };
}

/** Deletes stored files by key (photo and/or thumbnail). Missing files are fine. Never throws. */
export async function removeStoredImage(
  ctx: Pick<AppContext, 'config'>,
  ...keys: ReadonlyArray<string | null | undefined>
): Promise<void> {
  await removeKeys(uploadsDir(ctx.config.dataDir), keys);
}

/** Whether a URL points at a photo this app stored (e.g. a chat message's `url`). */
export function isStoredImageUrl(url: string): boolean {
  return keyFromUrl(url) !== null;
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
