import type { ImageVariants, Listing } from '@campus/contract';

/**
 * How listing photos are laid out: how wide they are drawn (`sizes` of their `<picture>` sources),
 * per layout, and which photo leads a listing's page. Shared with the boot script, which preloads
 * the first screen's photo with the same variants and `sizes`, so that the browser picks the same
 * file and the page's `<img>` finds it already downloaded.
 */
export const RAIL_TILE_SIZES = '(min-width: 1024px) 18rem, (min-width: 768px) 21rem, 78vw';
export const LIST_ROW_SIZES = '(min-width: 768px) 22rem, (min-width: 640px) 9rem, 7rem';
export const DETAIL_PHOTO_SIZES = '(min-width: 1024px) 42rem, 100vw';

/** The variants of the photo a listing's page shows first (the cover: photos[0]). */
export function leadPhotoVariants(listing: Pick<Listing, 'photos' | 'imageVariants'>): ImageVariants | null {
  return listing.photos?.[0]?.variants ?? listing.imageVariants;
}
