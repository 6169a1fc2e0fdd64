import { mkdir } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import { LIMITS } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { processJpeg, tooLarge } from './image.js';
import {
  STORED_NAME,
  UPLOADS_PREFIX,
  keyFromUrl,
  removeKeys,
  uploadsDir,
  urlForKey,
  writeImagePair,
} from './storage.js';

export { keyFromUrl, urlForKey, UPLOADS_PREFIX } from './storage.js';

/** A photo stored by storeJpeg: keys are file names in DATA_DIR/uploads, URLs are served by the app. */
export interface StoredImage {
  imageKey: string;
  thumbKey: string;
  imageUrl: string;
  thumbnailUrl: string;
}

/**
 * Validates (JPEG by content, ≤ 10 MB -> else 413, pixel limit), re-encodes (upright, ≤ 1600 px,
 * no metadata) and stores a photo plus its thumbnail under random names. Files are written only
 * after every check passed. Callers that then fail to save their database row must call
 * removeStoredImage, so no orphan file stays behind.
 */
export async function storeJpeg(
  ctx: Pick<AppContext, 'config'>,
  input: Buffer | Readable,
): Promise<StoredImage> {
  const bytes = Buffer.isBuffer(input) ? input : await readLimited(input);
  const { image, thumb } = await processJpeg(bytes);
  const { imageKey, thumbKey } = await writeImagePair(uploadsDir(ctx.config.dataDir), image, thumb);
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
 * Serves GET /uploads/{name}: only names this module generates, as image/jpeg, cacheable forever
 * (names are never reused). Registered once, by the listings module, in its own encapsulated
 * context so the SPA's static plugin keeps its reply decorator.
 */
export async function registerMediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The static plugin checks its root at start-up; a fresh DATA_DIR has no uploads yet.
  await mkdir(uploadsDir(ctx.config.dataDir), { recursive: true });
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: uploadsDir(ctx.config.dataDir),
      prefix: UPLOADS_PREFIX,
      decorateReply: false,
      wildcard: true,
      index: false,
      list: false,
      dotfiles: 'deny',
      redirect: false,
      cacheControl: false,
      allowedPath: (pathName) => STORED_NAME.test(pathName.replace(/^\//, '')),
      setHeaders: (reply) => {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        reply.header('content-type', 'image/jpeg');
      },
    });
  });
}
