import { CHAT_LIMIT_MESSAGES, CHAT_LIMITS, MESSAGES } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import { principalOf } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { withUploadSlot } from '../http/uploads.js';
import { REMOVAL_ATTEMPTS, keyFromUrl, storeJpeg, storedKeyOfUrl, urlForKey } from '../media/index.js';

/** Removes a chat photo no message uses, 24 h after its upload (enqueued with the upload). */
export const CHAT_PHOTO_EXPIRE_JOB = 'chat.photo.expire';

interface ExpirePayload {
  imageKey: string;
  thumbKey: string;
}

/**
 * Chat photos. POST /api/chats/upload records who uploaded the photo, and a
 * durable job to remove it, in one transaction committed before the file is written; a SEND may
 * carry only a `url` its sender uploaded. The job keeps the photo if a message uses it and
 * otherwise deletes the record and the files — so an upload never sent, or one whose files were
 * written by a process that crashed before answering (or by a bucket that failed half-way), is gone
 * 24 h later.
 *
 * In a bucket chat photos are private (`{campus}/chat/…`): every answer that carries one — the
 * upload's, live delivery, history, the room list — carries a URL signed for at most 15 minutes,
 * and only the two students of the room get those answers. Messages store the app's own
 * `/uploads/<key>` form, so a URL is signed afresh for each reader and never outlives its minutes.
 */
export class ChatPhotos {
  constructor(private readonly ctx: AppContext) {
    ctx.jobs.register<ExpirePayload>(CHAT_PHOTO_EXPIRE_JOB, (p) => this.expire(p));
  }

  /** POST /api/chats/upload: the multipart field `image`; answers the photo's URL. */
  readonly upload = async (request: FastifyRequest): Promise<string> => {
    if (!request.isMultipart()) throw badRequest(MESSAGES.noFileUploaded);
    const userId = principalOf(request).userId;
    await this.ctx.limits.consume('upload:account', String(userId));
    return withUploadSlot(this.ctx, userId, () => this.receive(request, userId));
  };

  private async receive(request: FastifyRequest, userId: number): Promise<string> {
    const part = await request.file();
    if (!part) throw badRequest(MESSAGES.noFileUploaded);
    if (part.fieldname !== 'image') {
      part.file.resume();
      throw badRequest(MESSAGES.noFileUploaded);
    }
    const stored = await storeJpeg(this.ctx, part.file, {
      visibility: 'private',
      beforeWrite: (keys) =>
        this.ctx.db.kysely.transaction().execute(async (trx) => {
          const now = this.ctx.clock();
          await trx
            .insertInto('chat_uploads')
            .values({ image_key: keys.imageKey, thumb_key: keys.thumbKey, user_id: userId, created_at: now })
            .execute();
          await this.ctx.jobs.enqueue<ExpirePayload>(trx, CHAT_PHOTO_EXPIRE_JOB, keys, {
            key: `${CHAT_PHOTO_EXPIRE_JOB}:${keys.imageKey}`,
            runAt: now + CHAT_LIMITS.unsentPhotoTtlMs,
            // Its removal must outlast a bucket that is away for a while (media REMOVAL_ATTEMPTS).
            maxAttempts: REMOVAL_ATTEMPTS,
          });
        }),
    });
    return stored.imageUrl;
  }

  /**
   * Throws 400 unless `url` names a photo this student uploaded through POST /api/chats/upload
   * (the URL that call answered: `/uploads/<key>`, or in a bucket the signed URL too); answers the
   * form messages store.
   */
  async assertUploadedBy(userId: number, url: string): Promise<string> {
    const key = this.signsUrls ? storedKeyOfUrl(url) : keyFromUrl(url);
    if (key === null) throw badRequest(MESSAGES.chatImageNotOurs);
    const row = await this.ctx.db.kysely
      .selectFrom('chat_uploads')
      .select('user_id')
      .where('image_key', '=', key)
      .where('campus_id', '=', requireCampusId())
      .executeTakeFirst();
    if (!row || row.user_id !== userId) throw badRequest(CHAT_LIMIT_MESSAGES.photoNotYours);
    return urlForKey(key);
  }

  /**
   * A message as its reader gets it: in a bucket its photo as a URL signed for at most 15 minutes
   * (the caller hands it only to the room's two students); on disk unchanged.
   */
  /** Whether answers carrying a chat photo must go through present() (photos in a bucket). */
  get signsUrls(): boolean {
    return this.ctx.photoStorage.signsPrivateUrls;
  }

  async present<M extends { url: string | null }>(message: M): Promise<M> {
    const storage = this.ctx.photoStorage;
    if (!storage.signsPrivateUrls || message.url === null) return message;
    const key = storedKeyOfUrl(message.url);
    if (key === null) return message;
    return { ...message, url: await storage.signedUrl(requireCampusId(), key) };
  }

  /** The job, run in the campus of the upload (enqueued in the upload's request). */
  private async expire({ imageKey, thumbKey }: ExpirePayload): Promise<void> {
    const db = this.ctx.db.kysely;
    const campusId = requireCampusId();
    const used = await db
      .selectFrom('chat_messages')
      .select('id')
      .where('url', '=', urlForKey(imageKey))
      .where('campus_id', '=', campusId)
      .limit(1)
      .executeTakeFirst();
    if (used) return;
    await db
      .deleteFrom('chat_uploads')
      .where('image_key', '=', imageKey)
      .where('campus_id', '=', campusId)
      .execute();
    // A bucket that fails fails the job, which runs again later: the photo is never left behind.
    await this.ctx.photoStorage.remove(campusId, [imageKey, thumbKey]);
  }
}
