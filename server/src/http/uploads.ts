import multipart from '@fastify/multipart';
import { LIMITS } from '@campus/contract';
import type { FastifyInstance } from 'fastify';

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
