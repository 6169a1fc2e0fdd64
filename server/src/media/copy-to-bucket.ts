import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { acrossCampuses } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import type { BucketStorage } from './bucket-storage.js';
import type { Visibility } from './photo-storage.js';
import { STORED_NAME, uploadsDir } from './storage.js';
import { variantKeys } from './variants.js';

/** A stored image the database names: its campus, who may see it, its bare name. */
interface NamedImage {
  campusId: number;
  visibility: Visibility;
  key: string;
}

export interface CopyReport {
  /** Files put into the bucket (photos, thumbnails and the variants on disk). */
  copied: number;
  /** Names a row holds whose file is not in DATA_DIR/uploads (a broken image before and after). */
  missing: string[];
}

/**
 * Every image the database names, with its campus: the folder on disk holds every campus's files
 * under bare names, so only the rows know which prefix each belongs under. Read across campuses
 * (an operator's one-off copy, like start-up).
 */
async function namedImages(db: Kysely<Database>): Promise<NamedImage[]> {
  return acrossCampuses(async () => {
    const out: NamedImage[] = [];
    const add = (rows: Array<{ campus_id: number; keys: Array<string | null> }>, visibility: Visibility) => {
      for (const r of rows)
        for (const key of r.keys)
          if (key && STORED_NAME.test(key)) out.push({ campusId: Number(r.campus_id), visibility, key });
    };
    const listings = await db
      .selectFrom('listings')
      .select(['campus_id', 'image_key', 'thumb_key'])
      .execute();
    add(
      listings.map((r) => ({ campus_id: r.campus_id, keys: [r.image_key, r.thumb_key] })),
      'public',
    );
    const photos = await db
      .selectFrom('listing_photos')
      .select(['campus_id', 'image_key', 'thumb_key'])
      .execute();
    add(
      photos.map((r) => ({ campus_id: r.campus_id, keys: [r.image_key, r.thumb_key] })),
      'public',
    );
    const avatars = await db
      .selectFrom('users')
      .select(['campus_id', 'avatar_key', 'avatar_thumb_key'])
      .where('avatar_key', 'is not', null)
      .execute();
    add(
      avatars.map((r) => ({ campus_id: r.campus_id, keys: [r.avatar_key, r.avatar_thumb_key] })),
      'public',
    );
    const chat = await db
      .selectFrom('chat_uploads')
      .select(['campus_id', 'image_key', 'thumb_key'])
      .execute();
    add(
      chat.map((r) => ({ campus_id: r.campus_id, keys: [r.image_key, r.thumb_key] })),
      'private',
    );
    // The cover is in listings and listing_photos alike: each file once.
    return [...new Map(out.map((i) => [`${i.campusId}/${i.visibility}/${i.key}`, i])).values()];
  });
}

async function readIfThere(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/**
 * Copies DATA_DIR/uploads into the bucket, each file under the prefix its row says (listing
 * photos and avatars `{slug}/photos/`, with the variants already made; chat photos `{slug}/chat/`),
 * before a deployment switches to S3_BUCKET. Idempotent (a repeat puts the same bytes again);
 * files no row names are left behind (nothing would show them). Variants not on disk are made
 * after the switch by the backfill (queueVariantBackfill) or never asked for.
 */
export async function copyUploadsToBucket(
  db: Kysely<Database>,
  dataDir: string,
  bucket: BucketStorage,
  progress: (done: number, total: number) => void = () => undefined,
): Promise<CopyReport> {
  const dir = uploadsDir(dataDir);
  const images = await namedImages(db);
  const report: CopyReport = { copied: 0, missing: [] };
  for (const [i, image] of images.entries()) {
    const body = await readIfThere(path.join(dir, image.key));
    if (!body) report.missing.push(image.key);
    else {
      await bucket.putFile(image.campusId, image.visibility, image.key, body);
      report.copied += 1;
    }
    if (image.visibility === 'public') {
      for (const variant of variantKeys(image.key)) {
        const data = await readIfThere(path.join(dir, variant));
        if (!data) continue;
        await bucket.putFile(image.campusId, 'public', variant, data);
        report.copied += 1;
      }
    }
    progress(i + 1, images.length);
  }
  return report;
}
