import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { variantSrcset, type ImageVariants } from '@campus/contract';
import { apiUrl } from '../../../api/client';
import { cx } from '../../../ui/cx';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon } from '../../../ui/icons';
import { usePhotoGestures } from './usePhotoGestures';
import { useModal } from './useModal';
import { MAX_SCALE, ZOOM_STEP, type Size } from './zoom';

export interface ViewerPhoto {
  /** The JPEG (at most 1600 px), the fallback for browsers that take neither AVIF nor WebP. */
  src: string;
  variants: ImageVariants | null;
  alt: string;
}

export interface PhotoViewerProps {
  /** The listing's name: the viewer is "Photos of <title>". */
  title: string;
  photos: readonly ViewerPhoto[];
  /** The photo to open on. */
  start: number;
  /** Closed on the photo at `index` (the gallery shows it and takes focus back). */
  onClose: (index: number) => void;
}

const BUTTON =
  'flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-black/60 text-white ring-1 ring-white/30 transition-colors hover:bg-black/80 focus-visible:outline-white aria-disabled:cursor-default aria-disabled:opacity-40';

/** The photo fills the screen, so the browser picks the widest variant the screen can show. */
const VIEWER_SIZES = '100vw';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function Sources({ variants }: { variants: ImageVariants | null }) {
  if (!variants) return null;
  const local = { ...variants, url: apiUrl(variants.url) };
  return variants.formats.map((format) => (
    <source
      key={format}
      type={`image/${format}`}
      srcSet={variantSrcset(local, format)}
      sizes={VIEWER_SIZES}
    />
  ));
}

const ZoomIcon = ({ plus }: { plus: boolean }) => (
  <svg
    width={22}
    height={22}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    aria-hidden="true"
    focusable="false"
  >
    <circle cx="11" cy="11" r="7" />
    <path d={plus ? 'm20 20-3.5-3.5M8 11h6M11 8v6' : 'm20 20-3.5-3.5M8 11h6'} />
  </svg>
);

/**
 * The full-screen photo viewer of a listing (loaded on demand: the gallery imports it lazily).
 * A modal <dialog> (the page behind is inert, Tab stays inside, Escape closes), the page's scroll
 * locked while open. Swipe, pinch, double tap, the wheel, the buttons and the keys (arrows,
 * Home/End, + and -, 0) all work; the position ("2 of 3") is announced as it changes.
 */
export default function PhotoViewer({ title, photos, start, onClose }: PhotoViewerProps) {
  const count = photos.length;
  const [index, setIndex] = useState(() => Math.min(Math.max(0, start), count - 1));
  const [sizes, setSizes] = useState<Record<number, Size>>({});
  const [plain, setPlain] = useState<Record<number, true>>({});
  const stage = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [smooth] = useState(() => !reducedMotion());

  const dialog = useModal(closeButton);
  const close = () => {
    dialog.current?.close();
    onClose(index);
  };
  const { view, drag, moving, zoomBy, reset, handlers } = usePhotoGestures({
    stage,
    index,
    count,
    natural: sizes[index] ?? null,
    onIndex: setIndex,
    onDismiss: close,
  });
  const go = (next: number) => setIndex(Math.min(Math.max(0, next), count - 1));

  function onKeyDown(e: KeyboardEvent<HTMLDialogElement>) {
    const moves: Record<string, () => void> = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(count - 1),
      '+': () => zoomBy(ZOOM_STEP),
      '=': () => zoomBy(ZOOM_STEP),
      '-': () => zoomBy(1 / ZOOM_STEP),
      '0': reset,
    };
    const action = moves[e.key];
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    action();
  }

  // Dragging down to close fades the black behind the photo.
  useEffect(() => {
    const el = dialog.current;
    if (el) el.style.backgroundColor = drag.y > 0 ? `rgb(0 0 0 / ${Math.max(0.3, 1 - drag.y / 400)})` : '';
  }, [dialog, drag.y]);

  const transition = smooth && !moving ? 'transform 250ms ease-out' : 'none';
  const atFirst = index === 0;
  const atLast = index === count - 1;

  return (
    <dialog
      ref={dialog}
      aria-label={`Photos of ${title}`}
      tabIndex={-1}
      onCancel={(e) => {
        // Escape: close here, so the gallery gets the photo shown now and focus back.
        e.preventDefault();
        close();
      }}
      onKeyDown={onKeyDown}
      className="m-0 h-full max-h-none w-full max-w-none overflow-hidden overscroll-contain border-0 bg-black p-0 text-white outline-none backdrop:bg-black"
    >
      <div
        ref={stage}
        {...handlers}
        className={cx('absolute inset-0 touch-none select-none', view.scale > 1 && 'cursor-grab')}
      >
        <div
          className="flex h-full"
          style={{
            transform: `translate3d(calc(${-index * 100}% + ${drag.x}px), ${drag.y}px, 0)`,
            transition,
          }}
        >
          {photos.map((photo, i) => (
            <div key={i} className="relative h-full w-full shrink-0" aria-hidden={i !== index || undefined}>
              {/* Only the shown photo and its neighbours load: a swipe finds the next one ready. */}
              {Math.abs(i - index) <= 1 && (
                <picture>
                  {/* A variant not made yet (just uploaded to a bucket): the plain JPEG instead. */}
                  <Sources variants={plain[i] ? null : photo.variants} />
                  <img
                    src={apiUrl(photo.src)}
                    alt={photo.alt}
                    draggable={false}
                    decoding="async"
                    onError={() => setPlain((p) => (p[i] ? p : { ...p, [i]: true }))}
                    onLoad={(e) => {
                      const { naturalWidth: width, naturalHeight: height } = e.currentTarget;
                      setSizes((s) => ({ ...s, [i]: { width, height } }));
                    }}
                    className="absolute inset-0 h-full w-full object-contain"
                    style={
                      i === index
                        ? {
                            transform: `translate3d(${view.x}px, ${view.y}px, 0) scale(${view.scale})`,
                            transition,
                          }
                        : undefined
                    }
                  />
                </picture>
              )}
            </div>
          ))}
        </div>
      </div>

      <div className="pointer-events-none absolute inset-x-0 top-0 flex items-center justify-between gap-2 bg-gradient-to-b from-black/70 to-transparent px-2 pt-[max(0.5rem,env(safe-area-inset-top))] pb-6 sm:px-4">
        <p
          aria-live="polite"
          aria-atomic="true"
          className="rounded-full bg-black/60 px-3 py-1.5 text-sm font-semibold text-white tabular-nums"
        >
          <span className="sr-only">Photo </span>
          {index + 1} of {count}
        </p>
        <div className="pointer-events-auto flex items-center gap-2">
          <button
            type="button"
            aria-label="Zoom out"
            aria-disabled={view.scale <= 1 || undefined}
            onClick={() => zoomBy(1 / ZOOM_STEP)}
            className={BUTTON}
          >
            <ZoomIcon plus={false} />
          </button>
          <button
            type="button"
            aria-label="Zoom in"
            aria-disabled={view.scale >= MAX_SCALE || undefined}
            onClick={() => zoomBy(ZOOM_STEP)}
            className={BUTTON}
          >
            <ZoomIcon plus />
          </button>
          <button ref={closeButton} type="button" aria-label="Close" onClick={close} className={BUTTON}>
            <CloseIcon size={22} />
          </button>
        </div>
      </div>

      {count > 1 && (
        <>
          {/* aria-disabled, not disabled: a focused button that turns disabled drops focus out of the dialog. */}
          <button
            type="button"
            aria-label="Previous photo"
            aria-disabled={atFirst || undefined}
            onClick={() => go(index - 1)}
            className={cx(BUTTON, 'absolute top-1/2 left-2 -translate-y-1/2 sm:left-4')}
          >
            <ChevronLeftIcon size={24} />
          </button>
          <button
            type="button"
            aria-label="Next photo"
            aria-disabled={atLast || undefined}
            onClick={() => go(index + 1)}
            className={cx(BUTTON, 'absolute top-1/2 right-2 -translate-y-1/2 sm:right-4')}
          >
            <ChevronRightIcon size={24} />
          </button>
        </>
      )}
    </dialog>
  );
}
