/**
 * What a shared listing link shows to someone without a session (docs/decisions.md "Sharing and
 * link previews"): the listing's name, price, condition, cover photo and campus — nothing of the
 * seller, nothing of the description. Same answer for a link-preview bot, a visitor and a student:
 * it depends only on the link's address and the listing.
 */
import {
  centsToDollars,
  type Category,
  type Condition,
  type ListingPreview,
  type ListingStatus,
} from '@campus/contract';
import type { AppContext } from '../context.js';
import { acrossCampuses, campusBaseUrl, type Campus } from '../campuses/index.js';
import { findListingPreviewRow } from '../listings/index.js';
import { imageVariants, photoUrl } from '../media/index.js';

export interface SharedListing {
  preview: ListingPreview;
  /** The campus's site (no trailing slash): where the listing's page and photo are. */
  baseUrl: string;
}

/**
 * Whether `campus` is the one served at `host`: the campus whose `hosts` list it, else (an address
 * no campus lists, e.g. PUBLIC_URL) the campuses without hosts of their own. A listing previews on
 * its own campus's site only, so a link never shows one campus's listing on another's address.
 */
function servedAt(ctx: AppContext, campus: Campus, host: string): boolean {
  const hostCampus = ctx.campuses.forHost(host);
  return hostCampus ? hostCampus.id === campus.id : campus.hosts.length === 0;
}

/**
 * The preview of listing `id` at the address `host`, or null: unknown, of a campus not served at
 * this address, removed or under review by a moderator, or on a campus that turned previews off.
 */
export async function sharedListing(
  ctx: AppContext,
  host: string,
  id: number,
): Promise<SharedListing | null> {
  // Read across campuses: an anonymous request has no campus yet; the listing's own decides.
  const row = await acrossCampuses(() => findListingPreviewRow(ctx.db.kysely, id));
  if (!row || row.moderation !== null) return null;
  const campus = ctx.campuses.byId(Number(row.campus_id));
  if (!campus.linkPreviews || !servedAt(ctx, campus, host)) return null;
  return {
    baseUrl: campusBaseUrl(ctx.config.publicUrl, campus),
    preview: {
      id: Number(row.id),
      name: row.name,
      price: centsToDollars(row.price_cents),
      category: row.category as Category,
      condition: (row.condition as Condition | null) ?? null,
      status: row.status as ListingStatus,
      // Photo files are served to anyone who knows their random name (media/index.ts): the cover's
      // is the only one a preview names.
      imageUrl: photoUrl(ctx.photoStorage, campus.id, row.image_key),
      thumbnailUrl: photoUrl(ctx.photoStorage, campus.id, row.thumb_key),
      imageVariants: imageVariants(ctx.photoStorage, campus.id, row.image_key),
      campusName: campus.name,
    },
  };
}
