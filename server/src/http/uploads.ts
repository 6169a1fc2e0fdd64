import multipart from '@fastify/multipart';
import { ERROR_CODES, LIMITS, MESSAGES } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from './errors.js';

/** Up to 8 photos per listing (features.md §B) plus the text fields. */
export const MULTIPART_LIMITS = {
  fileSize: LIMITS.imageMaxBytes,
  files: 8,
  fields: 10,
  fieldSize: 16 * 1024,
  parts: 20,
} as const;

/**
 * Registers upload routes in their own scope with @fastify/multipart. Registered on the whole app,
 * the plugin runs two async hooks on every request — an onRequest that listens for the response's
 * close and an onResponse that cleans saved files — reads included, which never carry a file; here
 * only the upload routes pay for them. Other routes answer a multipart body with 415.
 */
export async function uploadRoutes(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => unknown,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    await routes(scope);
  });
}

/** Uploads in progress per student, per app (tests run several apps in one process). */
const uploading = new WeakMap<AppContext, Map<number, number>>();

/**
 * Runs an upload of this student, refusing another while `UPLOADS_PER_STUDENT` (default 1)
 * are still in progress (429): what one student can make a process receive, decode and hold at
 * once is one form's worth, however many requests they open. Per process: each process bounds its own
 * memory. Call it after authentication and before reading the body, so a refused request reads
 * nothing.
 */
export async function withUploadSlot<T>(
  ctx: AppContext,
  userId: number,
  upload: () => Promise<T>,
): Promise<T> {
  let busy = uploading.get(ctx);
  if (!busy) {
    busy = new Map();
    uploading.set(ctx, busy);
  }
  const inProgress = busy.get(userId) ?? 0;
  if (inProgress >= ctx.config.uploadsPerStudent)
    throw new HttpError(429, MESSAGES.uploadInProgress, ERROR_CODES.rateLimited, { 'retry-after': '5' });
  busy.set(userId, inProgress + 1);
  try {
    return await upload();
  } finally {
    const left = (busy.get(userId) ?? 1) - 1;
    if (left > 0) busy.set(userId, left);
    else busy.delete(userId);
  }
}
