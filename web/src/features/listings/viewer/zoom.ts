/**
 * The photo viewer's geometry, free of the DOM so it can be tested: how a photo is zoomed and
 * panned inside the stage, and where a swipe lands. Points are in CSS px from the stage's centre;
 * the photo is drawn `translate(x, y) scale(scale)` about that centre.
 */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
/** Past this a 1280 px photo only shows blur on a phone. */
export const MAX_SCALE = 4;
/** A double tap or double click zooms this far (and back). */
export const DOUBLE_TAP_SCALE = 2.5;
/** One press of a zoom button or key. */
export const ZOOM_STEP = 1.5;
/** Below this after a pinch the photo snaps back to fit (no "almost fitted" state). */
const SNAP_BELOW = 1.05;

export const FITTED: View = { scale: 1, x: 0, y: 0 };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The photo's drawn size at scale 1: as large as fits the stage, ratio kept (object-fit: contain). */
export function fittedSize(stage: Size, natural: Size | null): Size {
  if (!natural || natural.width <= 0 || natural.height <= 0) return stage;
  const ratio = Math.min(stage.width / natural.width, stage.height / natural.height);
  return { width: natural.width * ratio, height: natural.height * ratio };
}

/**
 * The view within bounds: the scale between 1 and MAX_SCALE, and the pan no further than keeps the
 * photo's edge at the stage's edge (a photo smaller than the stage on an axis stays centred on it).
 */
export function clampView(view: View, stage: Size, photo: Size): View {
  const scale = clamp(view.scale, MIN_SCALE, MAX_SCALE);
  const maxX = Math.max(0, (photo.width * scale - stage.width) / 2);
  const maxY = Math.max(0, (photo.height * scale - stage.height) / 2);
  return { scale, x: clamp(view.x, -maxX, maxX) || 0, y: clamp(view.y, -maxY, maxY) || 0 };
}

/** Zooms to `scale` keeping the photo's point under `at` where it is on the screen. */
export function zoomAt(view: View, scale: number, at: Point, stage: Size, photo: Size): View {
  const next = clamp(scale, MIN_SCALE, MAX_SCALE);
  const k = next / view.scale;
  return clampView(
    { scale: next, x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k },
    stage,
    photo,
  );
}

/** A double tap: zoom in on the tapped point, or back to fitted when zoomed. */
export function toggleZoom(view: View, at: Point, stage: Size, photo: Size): View {
  return view.scale > MIN_SCALE ? FITTED : zoomAt(view, DOUBLE_TAP_SCALE, at, stage, photo);
}

/**
 * Where a pinch has got to: the scale follows the distance between the two fingers, and the
 * point that was between them at the start follows their midpoint.
 */
export function pinchView(
  start: View,
  from: { mid: Point; distance: number },
  now: { mid: Point; distance: number },
): View {
  // Allowed a little past the limits while the fingers are down; settle() brings it back.
  const scale = clamp(start.scale * (now.distance / Math.max(1, from.distance)), 0.8, MAX_SCALE * 1.2);
  const k = scale / start.scale;
  return {
    scale,
    x: now.mid.x - (from.mid.x - start.x) * k,
    y: now.mid.y - (from.mid.y - start.y) * k,
  };
}

/** After a pinch: back within bounds, and snapped to fitted when barely zoomed. */
export function settle(view: View, stage: Size, photo: Size): View {
  return view.scale < SNAP_BELOW ? FITTED : clampView(view, stage, photo);
}

/**
 * The photo a horizontal swipe lands on: the next or previous one once the finger has gone a fifth
 * of the width or flicked, else the same one. `dx` is the drag (negative: to the left, towards the
 * next photo), `velocity` in px/ms at release.
 */
export function swipeTarget(
  index: number,
  count: number,
  dx: number,
  velocity: number,
  width: number,
): number {
  const far = Math.abs(dx) > width * 0.2 || (Math.abs(velocity) > 0.4 && Math.abs(dx) > 12);
  if (!far) return index;
  return clamp(dx < 0 ? index + 1 : index - 1, 0, count - 1);
}

/** A drag past the first or last photo moves a third as far (the edge resists, as in every app). */
export function dragOffset(index: number, count: number, dx: number): number {
  const atEdge = (index === 0 && dx > 0) || (index === count - 1 && dx < 0);
  return atEdge ? dx / 3 : dx;
}
