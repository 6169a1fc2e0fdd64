/**
 * How wide listing photos are drawn (`sizes` of their `<picture>` sources), per layout. Shared with
 * the boot script, which preloads the first photo of a page with the same `sizes`, so that the
 * browser picks the same file and the page's `<img>` finds it already downloaded.
 */
export const RAIL_TILE_SIZES = '(min-width: 1024px) 18rem, (min-width: 768px) 21rem, 78vw';
export const LIST_ROW_SIZES = '(min-width: 768px) 22rem, (min-width: 640px) 9rem, 7rem';
export const DETAIL_PHOTO_SIZES = '(min-width: 1024px) 42rem, 100vw';
