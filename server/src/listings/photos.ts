import { SELLING_LIMITS, SELLING_MESSAGES, isDbId, type Listing } from '@campus/contract';
import { sql } from 'kysely';
import type { AppContext, Principal } from '../context.js';
import type { Trx } from '../events.js';
import { badRequest, notFound } from '../http/errors.js';
import { prepareJpeg, queueVariants, removeLater, writePrepared, type ImageInput } from '../media/index.js';
import type { ListingsService } from './service.js';
import type { ListingRow } from './store.js';

/**
 * Photos of a listing (features.md §B): at most 8, ordered by `position`, the first is the cover
 * and is mirrored into listings.image_key/thumb_key so every older reader (imageUrl, chat, the
 * seed) keeps working. A photo is recorded before its files are written, and a removed photo's
 * files are deleted by a job enqueued with the row's delete: no file is served that no row knows.
 */
export class PhotosService {
  constructor(
    private readonly ctx: AppContext,
    private readonly listings: ListingsService,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  /** Serialises photo changes of one listing (PostgreSQL; SQLite writes are serial already). */
  private async lock(trx: Trx, id: number): Promise<void> {
    if (this.ctx.db.dialect === 'postgres')
      await sql`select id from listings where id = ${id} for update`.execute(trx);
  }

  private async count(trx: Trx | typeof this.db, id: number): Promise<number> {
    const r = await trx
      .selectFrom('listing_photos')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('listing_id', '=', id)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /**
   * Points the listing's cover columns at its first photo (or none), bumps updated_at and announces
   * the change (the index and hot cache follow after commit).
   */
  private async syncCover(trx: Trx, id: number, now: number): Promise<ListingRow> {
    const first = await trx
      .selectFrom('listing_photos')
      .select(['image_key', 'thumb_key'])
      .where('listing_id', '=', id)
      .orderBy('position')
      .orderBy('id')
      .executeTakeFirst();
    const row = await trx
      .updateTable('listings')
      .set({ image_key: first?.image_key ?? null, thumb_key: first?.thumb_key ?? null, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.ctx.domainEvents.announce(trx, 'listing.changed', { row });
    return row;
  }

  /**
   * The cheap refusals of an added photo (not the seller's listing, listing full), run by the
   * route before the photo is read and again by add().
   */
  async checkAdd(principal: Principal, id: number): Promise<void> {
    await this.listings.ownedRow(principal, id);
    if ((await this.count(this.db, id)) >= SELLING_LIMITS.photosMax)
      throw badRequest(SELLING_MESSAGES.photosTooMany);
  }

  /** Prepares the photo, records it (with its variants job), then writes its files. */
  async add(principal: Principal, id: number, image: ImageInput | null): Promise<Listing> {
    await this.checkAdd(principal, id);
    if (!image) throw badRequest(SELLING_MESSAGES.photoRequired);
    const prepared = await prepareJpeg(image);
    const now = this.ctx.clock();
    const { photoId } = await this.ctx.domainEvents.transaction(async (trx) => {
      await this.lock(trx, id);
      if ((await this.count(trx, id)) >= SELLING_LIMITS.photosMax)
        throw badRequest(SELLING_MESSAGES.photosTooMany);
      const last = await trx
        .selectFrom('listing_photos')
        .select((eb) => eb.fn.max('position').as('p'))
        .where('listing_id', '=', id)
        .executeTakeFirst();
      const position = last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1;
      const photo = await trx
        .insertInto('listing_photos')
        .values({
          listing_id: id,
          position,
          image_key: prepared.imageKey,
          thumb_key: prepared.thumbKey,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await queueVariants(this.ctx, trx, prepared.imageKey);
      await this.syncCover(trx, id, now);
      return { photoId: photo.id };
    });
    try {
      await writePrepared(this.ctx, prepared);
    } catch (err) {
      // Take the photo back (its row, and the files if half written), then answer 503.
      await this.drop(id, photoId);
      throw err;
    }
    // The listing (or the photo) was deleted while the files were written: its removal job may have
    // run already, so the files this request wrote go now.
    const still = await this.db
      .selectFrom('listing_photos')
      .select('id')
      .where('id', '=', photoId)
      .executeTakeFirst();
    if (!still) {
      try {
        await this.ctx.photoStorage.remove(principal.campusId, [prepared.imageKey, prepared.thumbKey]);
      } catch {
        // The bucket failed just now: a durable job removes them once it is back.
        await removeLater(this.ctx, this.db, prepared.imageKey, prepared.thumbKey);
      }
    }
    return this.listings.get(principal.campusId, id);
  }

  /**
   * Deletes a photo's row and, in the same transaction, a job that removes its files: once the
   * row is gone the files go too, even if this process dies now. Undefined when there is no such
   * photo.
   */
  private async drop(id: number, photoId: number): Promise<ListingRow | undefined> {
    const now = this.ctx.clock();
    return this.ctx.domainEvents.transaction(async (trx) => {
      await this.lock(trx, id);
      const photo = await trx
        .deleteFrom('listing_photos')
        .where('id', '=', photoId)
        .where('listing_id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!photo) return undefined;
      await removeLater(this.ctx, trx, photo.image_key, photo.thumb_key);
      return this.syncCover(trx, id, now);
    });
  }

  async remove(principal: Principal, id: number, photoId: number): Promise<Listing> {
    await this.listings.ownedRow(principal, id);
    if (!(await this.drop(id, photoId))) throw notFound(SELLING_MESSAGES.photoNotFound);
    return this.listings.get(principal.campusId, id);
  }

  async reorder(principal: Principal, id: number, body: unknown): Promise<Listing> {
    await this.listings.ownedRow(principal, id);
    const ids = (body as { photoIds?: unknown } | null)?.photoIds;
    if (
      !Array.isArray(ids) ||
      ids.length === 0 ||
      !ids.every((v) => typeof v === 'number' && isDbId(v)) ||
      new Set(ids).size !== ids.length
    )
      throw badRequest(SELLING_MESSAGES.photoOrderInvalid);
    const order = ids as number[];
    const now = this.ctx.clock();
    await this.ctx.domainEvents.transaction(async (trx) => {
      await this.lock(trx, id);
      const current = await trx
        .selectFrom('listing_photos')
        .select('id')
        .where('listing_id', '=', id)
        .execute();
      const have = new Set(current.map((p) => p.id));
      if (have.size !== order.length || !order.every((p) => have.has(p)))
        throw badRequest(SELLING_MESSAGES.photoOrderInvalid);
      for (const [position, photoId] of order.entries()) {
        await trx.updateTable('listing_photos').set({ position }).where('id', '=', photoId).execute();
      }
      await this.syncCover(trx, id, now);
    });
    return this.listings.get(principal.campusId, id);
  }
}
