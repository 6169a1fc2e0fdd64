import { CHAT_LIMIT_MESSAGES, ERROR_CODES, MESSAGES, type ApiError } from '@campus/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isConnectionError } from '../db/connection.js';

/** Seconds a client is asked to wait after a 503 for an unreachable database. */
export const RETRY_AFTER_UNAVAILABLE_S = 5;

/** An error whose message is meant for the person using the app. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code: string = codeForStatus(statusCode),
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message, ERROR_CODES.validation);
export const unauthorized = (message: string = MESSAGES.unauthorized) =>
  new HttpError(401, message, ERROR_CODES.unauthorized);
export const forbidden = (message: string = MESSAGES.forbidden) =>
  new HttpError(403, message, ERROR_CODES.forbidden);
export const notFound = (message: string = MESSAGES.notFound) =>
  new HttpError(404, message, ERROR_CODES.notFound);
/** The request is fine but the thing's current state refuses it (already done, no longer open, …). */
export const conflict = (message: string) => new HttpError(409, message, ERROR_CODES.conflict);

function codeForStatus(status: number): string {
  if (status === 401) return ERROR_CODES.unauthorized;
  if (status === 403) return ERROR_CODES.forbidden;
  if (status === 404) return ERROR_CODES.notFound;
  if (status === 409) return ERROR_CODES.conflict;
  if (status === 413) return ERROR_CODES.tooLarge;
  if (status === 429) return ERROR_CODES.rateLimited;
  if (status >= 500) return ERROR_CODES.internal;
  return ERROR_CODES.validation;
}

/** Parses with a contract schema; the first issue becomes a 400 a person can act on. */
export function parseOr400<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } },
  value: unknown,
): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? MESSAGES.giveAllDetails);
  return result.data;
}

/**
 * Errors of the multipart parser (busboy, @fastify/multipart) on a body that is not a well-formed
 * form: no boundary, a truncated part, a part cut off before its headers end. They carry no code,
 * only these messages. A bad upload is the client's mistake: 400, never 500.
 */
// "Part terminated early": busboy's error on a file stream whose body ends inside the part (seen
// once the part is larger than what the first read held, so only with a real photo's size).
const MALFORMED_MULTIPART =
  /^(Multipart: |Unexpected end of (multipart data|form)|Malformed part header|Part terminated early)/;

export function isMalformedMultipart(
  request: FastifyRequest,
  error: { code?: string; message: string },
): boolean {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) return false;
  return (
    error.code === 'FST_PROTO_VIOLATION' ||
    error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ||
    (error.code === undefined && MALFORMED_MULTIPART.test(error.message))
  );
}

/** One error shape for the whole API: `{message, code}`; 5xx detail stays in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(body(error.message, error.code));
    }
    if (error instanceof ZodError) {
      return reply
        .code(400)
        .send(body(error.issues[0]?.message ?? MESSAGES.giveAllDetails, ERROR_CODES.validation));
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_FILES_LIMIT') {
      return reply.code(413).send(body(MESSAGES.imageTooLarge, ERROR_CODES.tooLarge));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send(body(MESSAGES.badJson, ERROR_CODES.validation));
    }
    if (isMalformedMultipart(request, error)) {
      return reply.code(400).send(body(CHAT_LIMIT_MESSAGES.malformedMultipart, ERROR_CODES.validation));
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send(body(error.message, codeForStatus(status)));
    }
    if (isConnectionError(error)) {
      // The database is down, restarting or out of connections: not the request's fault, and
      // likely over in seconds. Same status as /readyz, with a hint when to come back.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_UNAVAILABLE_S))
        .send(body(MESSAGES.serviceUnavailable, ERROR_CODES.unavailable));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(body(MESSAGES.serverError, ERROR_CODES.internal));
  });
}

function body(message: string, code: string): ApiError {
  return { message, code };
}
