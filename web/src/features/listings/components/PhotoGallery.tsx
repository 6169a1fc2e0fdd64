import { lazy, Suspense, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Listing } from '@campus/contract';
import { apiUrl } from '../../../api/client';
import { cx } from '../../../ui/cx';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../ui/icons';
import { ListingImage } from './ListingImage';
import { DETAIL_PHOTO_SIZES, leadPhotoVariants } from '../photoLayout';

const BOX = 'aspect-[4/3] w-full rounded-3xl border border-slate-200 bg-slate-100';

/** The full-screen viewer is its own chunk, fetched when a photo is first pressed. */
const loadViewer = () => import('../viewer/PhotoViewer');
const PhotoViewer = lazy(loadViewer);

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The detail page's photos (features.md §B): one photo is shown as before; several become a
 * gallery. Phones swipe (a horizontal scroll-snap strip, the browser's own gesture); desktops use
 * the arrow buttons, the thumbnails or the Left/Right/Home/End keys when the gallery has focus.
 * Every photo keeps its `<picture>` AVIF/WebP sources and says which photo it is in its alt text.
 */
export function PhotoGallery({ listing }: { listing: Listing }) {
  const photos = listing.photos;
  const strip = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const count = photos.length;

  const [viewing, setViewing] = useState<number | null>(null);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const cover = listing.imageUrl ?? listing.thumbnailUrl;

  // What the viewer shows: every photo, or the one photo of a listing with a single photo.
  const slides =
    count > 1
      ? photos.map((photo, i) => ({
          src: photo.url,
          variants: photo.variants,
          alt: `${listing.name}, photo ${i + 1} of ${count}`,
        }))
      : cover
        ? [{ src: listing.imageUrl ?? cover, variants: leadPhotoVariants(listing), alt: listing.name }]
        : [];

  /** A photo as a button that opens the viewer on it (focus comes back to it on close). */
  const opener = (i: number, image: ReactNode, className?: string) => (
    <button
      ref={(el) => {
        buttons.current[i] = el;
      }}
      type="button"
      aria-haspopup="dialog"
      tabIndex={count > 1 && i !== index ? -1 : undefined}
      onPointerDown={() => void loadViewer()}
      onClick={() => setViewing(i)}
      className={cx(
        'relative block cursor-zoom-in focus-visible:outline-3 focus-visible:-outline-offset-4 focus-visible:outline-brand-500',
        className,
      )}
    >
      {image}
      <ExpandBadge />
    </button>
  );

  const viewer = viewing !== null && (
    <Suspense fallback={null}>
      <PhotoViewer
        title={listing.name}
        photos={slides}
        start={viewing}
        onClose={(at) => {
          setViewing(null);
          if (count > 1) go(at, false);
          buttons.current[at]?.focus({ preventScroll: true });
        }}
      />
    </Suspense>
  );

  if (count <= 1) {
    const image = (
      <ListingImage
        src={cover}
        variants={leadPhotoVariants(listing)}
        sizes={DETAIL_PHOTO_SIZES}
        alt={listing.name}
        category={listing.category}
        priority
        fit="contain"
        width={1600}
        height={1200}
        iconSize={64}
        className={BOX}
      />
    );
    if (!cover) return image;
    return (
      <>
        {opener(0, image, 'w-full rounded-3xl')}
        {viewer}
      </>
    );
  }

  function go(next: number, animate = true) {
    const el = strip.current;
    const target = Math.max(0, Math.min(count - 1, next));
    setIndex(target);
    el?.scrollTo({
      left: target * el.clientWidth,
      behavior: animate && !reducedMotion() ? 'smooth' : 'auto',
    });
    // Focus on a photo follows it (the others are hidden from screen readers and the tab order).
    const active = document.activeElement;
    if (el && active !== el && el.contains(active)) buttons.current[target]?.focus({ preventScroll: true });
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = {
      ArrowLeft: index - 1,
      ArrowRight: index + 1,
      Home: 0,
      End: count - 1,
    };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    go(next);
  }

  return (
    <div>
      <div className="relative">
        {/* The strip itself takes focus (it scrolls) and answers the arrow keys. */}
        <div
          ref={strip}
          role="region"
          aria-roledescription="gallery"
          aria-label={`Photos of ${listing.name}`}
          tabIndex={0}
          onKeyDown={onKeyDown}
          onScroll={(e) => {
            const el = e.currentTarget;
            if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
          }}
          className={cx(
            BOX,
            'flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none] focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-500',
          )}
        >
          {photos.map((photo, i) => (
            <div
              key={photo.id}
              className="h-full w-full shrink-0 snap-center"
              aria-hidden={i !== index || undefined}
            >
              {opener(
                i,
                <ListingImage
                  src={photo.url}
                  variants={photo.variants}
                  sizes={DETAIL_PHOTO_SIZES}
                  alt={`${listing.name}, photo ${i + 1} of ${count}`}
                  category={listing.category}
                  priority={i === 0}
                  fit="contain"
                  width={1600}
                  height={1200}
                  iconSize={64}
                  className="h-full w-full"
                />,
                'h-full w-full',
              )}
            </div>
          ))}
        </div>
        <p
          aria-live="polite"
          className="absolute right-3 bottom-3 rounded-full bg-slate-900/75 px-2.5 py-1 text-xs font-semibold text-white tabular-nums"
        >
          <span className="sr-only">Photo </span>
          {index + 1} / {count}
        </p>
        <button
          type="button"
          onClick={() => go(index - 1)}
          disabled={index === 0}
          aria-label="Previous photo"
          className="absolute top-1/2 left-3 hidden h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/95 text-slate-900 shadow-md ring-1 ring-slate-900/10 hover:bg-white disabled:opacity-0 md:flex"
        >
          <ChevronLeftIcon size={22} />
        </button>
        <button
          type="button"
          onClick={() => go(index + 1)}
          disabled={index === count - 1}
          aria-label="Next photo"
          className="absolute top-1/2 right-3 hidden h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/95 text-slate-900 shadow-md ring-1 ring-slate-900/10 hover:bg-white disabled:opacity-0 md:flex"
        >
          <ChevronRightIcon size={22} />
        </button>
      </div>
      <ul aria-label="Choose a photo" className="mt-3 flex gap-2 overflow-x-auto pb-1">
        {photos.map((photo, i) => (
          <li key={photo.id} className="shrink-0">
            <button
              type="button"
              onClick={() => go(i)}
              aria-label={`Show photo ${i + 1}`}
              aria-current={i === index || undefined}
              className={cx(
                'block h-14 w-14 overflow-hidden rounded-xl border-2 sm:h-16 sm:w-16',
                i === index ? 'border-brand-600' : 'border-transparent opacity-75 hover:opacity-100',
              )}
            >
              <img
                src={apiUrl(photo.thumbnailUrl)}
                alt=""
                loading="lazy"
                className="h-full w-full object-cover"
              />
            </button>
          </li>
        ))}
      </ul>
      {viewer}
    </div>
  );
}

/** The corner mark saying the photo opens full screen (the button itself is named by the photo). */
function ExpandBadge() {
  return (
    <span className="pointer-events-none absolute top-3 right-3 flex h-8 w-8 items-center justify-center rounded-full bg-slate-900/65 text-white">
      <svg
        width={16}
        height={16}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M15 3h6v6M9 21H3v-6M21 3l-7 7M3 21l7-7" />
      </svg>
    </span>
  );
}
