import { useState } from 'react';
import { CATEGORY_LABELS, variantSrcset, type Category, type ImageVariants } from '@campus/contract';
import { apiUrl } from '../../../api/client';
import { cx } from '../../../ui/cx';
import { CategoryIcon } from '../../../ui/icons';

const PLACEHOLDER_TONES: Record<Category, string> = {
  LIFESTYLE: 'from-amber-50 to-amber-100 text-amber-700',
  BOOKS: 'from-sky-50 to-sky-100 text-sky-700',
  ELECTRONICS: 'from-indigo-50 to-indigo-100 text-indigo-700',
  EVENTS: 'from-rose-50 to-rose-100 text-rose-700',
  CLOTHING: 'from-fuchsia-50 to-fuchsia-100 text-fuchsia-700',
  SERVICES: 'from-emerald-50 to-emerald-100 text-emerald-700',
  OTHER: 'from-slate-50 to-slate-200 text-slate-600',
};

export interface ListingImageProps {
  src: string | null;
  /** The listing name (alt text). */
  alt: string;
  category: Category;
  /** Fills its parent (the parent sets the size / aspect ratio). */
  className?: string;
  /** Eager for the above-the-fold detail image, lazy elsewhere. */
  priority?: boolean;
  fit?: 'cover' | 'contain';
  /** Intrinsic size hint (the thumbnail is at most 480 px, the main image 1600 px). */
  width?: number;
  height?: number;
  iconSize?: number;
  /** Hide the placeholder's caption on phones (small list thumbnails). */
  compactPlaceholder?: boolean;
  /**
   * The photo's responsive variants (API `imageVariants`): AVIF and WebP `<source>`s in front of
   * the JPEG `src`, so the browser fetches the smallest file that fills the box at its pixel density.
   */
  variants?: ImageVariants | null;
  /** How wide the box is drawn (`sizes`), e.g. "(min-width: 768px) 50vw, 100vw". Needed with `variants`. */
  sizes?: string;
}

/**
 * A listing photo in a box of fixed size (no layout shift): lazy by default, with a category
 * pictogram placeholder when there is no photo or it fails to load.
 */
export function ListingImage({
  src,
  alt,
  category,
  className,
  priority = false,
  fit = 'cover',
  width = 480,
  height = 360,
  iconSize = 36,
  compactPlaceholder = false,
  variants = null,
  sizes = '100vw',
}: ListingImageProps) {
  const [failed, setFailed] = useState<string | null>(null);
  // A variant that is not there yet (a photo in a bucket, moments after its upload, before the
  // job made its variants): the plain JPEG then, and the placeholder only if that fails too.
  const [plain, setPlain] = useState<string | null>(null);
  const showImage = src !== null && src !== '' && failed !== src;
  const sources = plain === src ? null : variants;
  return (
    <div className={cx('relative overflow-hidden bg-slate-100', className)}>
      {showImage ? (
        <picture>
          {sources?.formats.map((format) => (
            <source
              key={format}
              type={`image/${format}`}
              srcSet={variantSrcset({ ...sources, url: apiUrl(sources.url) }, format)}
              sizes={sizes}
            />
          ))}
          <img
            src={apiUrl(src)}
            alt={alt}
            width={width}
            height={height}
            loading={priority ? 'eager' : 'lazy'}
            decoding="async"
            fetchPriority={priority ? 'high' : undefined}
            onError={() => (sources ? setPlain(src) : setFailed(src))}
            className={cx(
              'absolute inset-0 h-full w-full',
              fit === 'cover' ? 'object-cover' : 'object-contain',
            )}
          />
        </picture>
      ) : (
        <div
          role="img"
          aria-label={`${alt} (no photo)`}
          className={cx(
            'absolute inset-0 flex flex-col items-center justify-center gap-2 bg-gradient-to-br',
            PLACEHOLDER_TONES[category] ?? PLACEHOLDER_TONES.OTHER,
          )}
        >
          <CategoryIcon category={category} size={iconSize} className="opacity-80" />
          <span
            className={cx(
              'px-2 text-center text-xs font-medium tracking-wide uppercase opacity-80',
              compactPlaceholder && 'max-md:hidden',
            )}
          >
            {CATEGORY_LABELS[category] ?? 'Listing'} · no photo
          </span>
        </div>
      )}
    </div>
  );
}
