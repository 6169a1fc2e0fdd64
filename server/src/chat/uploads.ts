import { MESSAGES } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { principalOf } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { storeJpeg, urlForKey } from '../media/index.js';

/** URL of a stored listing thumbnail. */
export function thumbnailUrl(key: string | null): string | null {
  return key ? urlForKey(key) : null;
}

/**
 * POST /api/chats/upload: the multipart field `image`, checked and re-encoded by the media module
 * (JPEG by content, size and pixel limits, metadata stripped). Answers the photo's URL.
 */
export function chatUpload(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<string> => {
    if (!request.isMultipart()) throw badRequest(MESSAGES.noFileUploaded);
    await ctx.limits.consume('upload:account', String(principalOf(request).userId));
    const part = await request.file();
    if (!part) throw badRequest(MESSAGES.noFileUploaded);
    if (part.fieldname !== 'image') {
      part.file.resume();
      throw badRequest(MESSAGES.noFileUploaded);
    }
    const stored = await storeJpeg(ctx, part.file);
    return stored.imageUrl;
  };
}
