import { z } from './zod.js';
import { imageVariantsResponse } from './api.js';
import { CATEGORIES, type Category } from './categories.js';
import { LISTING_STATUSES, type ListingStatus } from './deals-rules.js';
import type { ImageVariants } from './media.js';
import { formatDollars } from './money.js';
import { CONDITION_LABELS, CONDITIONS, type Condition } from './selling-rules.js';

/**
 * Sharing a listing (docs/decisions.md "Sharing and link previews"): what a shared link shows to
 * someone without a session — a link-preview bot or a visitor. Only what a poster on a notice board
 * would show: name, price, condition, the cover photo and the campus. Never the seller, never the
 * description (free text, where sellers write rooms and phone numbers), never the other photos.
 */
export interface ListingPreview {
  id: number;
  name: string;
  /** Dollars. */
  price: number;
  category: Category;
  condition: Condition | null;
  status: ListingStatus;
  /** The cover photo (a path on the campus's site), or null. */
  imageUrl: string | null;
  thumbnailUrl: string | null;
  imageVariants: ImageVariants | null;
  campusName: string;
}

export const listingPreviewResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.number(),
  category: z.enum(CATEGORIES),
  condition: z.enum(CONDITIONS).nullable(),
  status: z.enum(LISTING_STATUSES),
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  imageVariants: imageVariantsResponse,
  campusName: z.string(),
}) satisfies z.ZodType<ListingPreview>;

export const SHARE_MESSAGES = {
  share: 'Share',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  copyFailed: 'Could not copy the link. Copy it from the address bar.',
  visitorPrompt: 'Log in with your university e-mail to message the seller',
  visitorNoPreview: 'Log in with your university e-mail to see this listing and message the seller',
  siteName: 'Campus Market',
  genericDescription:
    'Campus Market: buy and sell with verified students on your campus. Zero fees, on-campus pickup and real-time chat.',
} as const;

/** The preview's one line, e.g. "$40 · Like new · on Campus Market at MSU". */
export function previewDescription(
  preview: Pick<ListingPreview, 'price' | 'condition' | 'status' | 'campusName'>,
): string {
  // A price of 0 is a free item (features.md §H): the preview says so, not "$0".
  const parts = [preview.price === 0 ? 'Free' : formatDollars(preview.price)];
  if (preview.status === 'SOLD') parts.push('Sold');
  if (preview.condition) parts.push(CONDITION_LABELS[preview.condition]);
  parts.push(`on Campus Market at ${preview.campusName}`);
  return parts.join(' · ');
}
