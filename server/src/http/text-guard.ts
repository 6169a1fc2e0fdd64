import { ERROR_CODES, MESSAGES } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * PostgreSQL cannot store U+0000 in text (`invalid byte sequence for encoding "UTF8": 0x00`), and
 * no person means to type it. One check for every route, before any handler runs: a NUL anywhere in
 * the JSON body (values and keys, at any depth), the query string or the path parameters answers
 * 400 with a message, on both databases alike — a new route cannot forget it. Multipart text fields
 * are read by their upload route, which calls assertNoNul on each.
 */
export function registerTextGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and allocates nothing when clean.
  app.addHook('preValidation', (request, _reply, done) => {
    if (hasNul(request.body) || hasNul(request.query) || hasNul(request.params)) done(nulRefused());
    else done();
  });
}

/** Throws the 400 when `text` holds U+0000 (multipart fields, other hand-parsed input). */
export function assertNoNul(text: string): void {
  if (text.includes('\u0000')) throw nulRefused();
}

const nulRefused = () => new HttpError(400, MESSAGES.textHasNul, ERROR_CODES.validation);

/** Iterative, so a deeply nested body cannot overflow the stack (bodies are ≤ 256 KiB anyway). */
export function hasNul(value: unknown): boolean {
  // Most requests: no body, an empty query, a numeric id. Nothing to allocate for those.
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
