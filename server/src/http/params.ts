import { DB_INT_MAX } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from './errors.js';

/**
 * Ids in a path, one rule for every route: 1–10 digits, 1..DB_INT_MAX (a PostgreSQL `integer`),
 * so a number the database cannot hold is a 400 on both dialects instead of reaching SQL.
 */
const ID_DIGITS = /^\d{1,10}$/;

/** An id as a path segment names it, or undefined when it is not one. */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !ID_DIGITS.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= DB_INT_MAX ? id : undefined;
}

/** The id path parameter `key` (default `id`) of a request; a 400 with `message` when it is not one. */
export function pathId(request: FastifyRequest, message: string, key = 'id'): number {
  const id = parseId((request.params as Record<string, string | undefined>)[key]);
  if (id === undefined) throw badRequest(message);
  return id;
}

/** The documented shape of one id path parameter (route schemas describe; `pathId` parses). */
export const idSchema = z.number().int().min(1).max(DB_INT_MAX);

/** The documented params of a route with one `:id`. */
export const idParams = z.object({ id: idSchema });
