import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import {
  clampView,
  dragOffset,
  FITTED,
  fittedSize,
  pinchView,
  settle,
  swipeTarget,
  toggleZoom,
  zoomAt,
  type Point,
  type Size,
  type View,
} from './zoom';

/** A finger (or the mouse) must move this far before a press is a drag rather than a tap. */
const SLOP_PX = 8;
/** Two taps within this long and this close are a double tap. */
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_PX = 30;
/** A downward drag this long (px) on a fitted photo closes the viewer, as on every phone gallery. */
const DISMISS_PX = 120;

type Mode = 'press' | 'swipe' | 'dismiss' | 'pan' | 'pinch';

interface Gesture {
  mode: Mode;
  start: Point;
  startView: View;
  last: Point;
  lastTime: number;
  velocity: number;
  pinchFrom?: { mid: Point; distance: number };
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const midpoint = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

export interface PhotoGestures {
  view: View;
  /** The horizontal drag of the strip (swipe) and the vertical one (swipe down to close), in px. */
  drag: Point;
  /** True while a finger or the mouse moves the photo (no transition then). */
  moving: boolean;
  zoomBy: (factor: number) => void;
  reset: () => void;
  handlers: {
    onPointerDown: (e: ReactPointerEvent<HTMLElement>) => void;
    onPointerMove: (e: ReactPointerEvent<HTMLElement>) => void;
    onPointerUp: (e: ReactPointerEvent<HTMLElement>) => void;
    onPointerCancel: (e: ReactPointerEvent<HTMLElement>) => void;
  };
}

/**
 * Pointer events for the viewer's stage, one implementation for touch, pen and mouse: swipe
 * between photos, swipe down to close, pinch to zoom, double tap (or double click) to zoom in
 * and out, drag to pan a zoomed photo; the wheel (and a trackpad pinch, which Chrome and Safari
 * send as a ctrl+wheel) zooms about the cursor. The stage has `touch-action: none`, so the
 * browser leaves every gesture to us and never zooms the page behind.
 */
export function usePhotoGestures({
  stage,
  index,
  count,
  natural,
  onIndex,
  onDismiss,
}: {
  stage: RefObject<HTMLElement | null>;
  index: number;
  count: number;
  /** The shown photo's own size, once loaded (for the pan bounds). */
  natural: Size | null;
  onIndex: (index: number) => void;
  onDismiss: () => void;
}): PhotoGestures {
  const [view, setView] = useState<View>(FITTED);
  const [drag, setDrag] = useState<Point>({ x: 0, y: 0 });
  const [moving, setMoving] = useState(false);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);
  const lastTap = useRef<{ at: Point; time: number } | null>(null);
  // The shown photo's size for the wheel listener, which is attached once.
  const naturalRef = useRef(natural);
  useEffect(() => {
    naturalRef.current = natural;
  }, [natural]);

  // Another photo starts fitted.
  const [shownIndex, setShownIndex] = useState(index);
  if (shownIndex !== index) {
    setShownIndex(index);
    setView(FITTED);
  }

  const box = () => {
    const el = stage.current;
    const rect = el?.getBoundingClientRect() ?? { left: 0, top: 0, width: 1, height: 1 };
    const size: Size = { width: rect.width, height: rect.height };
    return { rect, size, photo: fittedSize(size, natural) };
  };

  /** A pointer's position from the stage's centre. */
  const local = (clientX: number, clientY: number): Point => {
    const { rect } = box();
    return { x: clientX - rect.left - rect.width / 2, y: clientY - rect.top - rect.height / 2 };
  };

  function begin(at: Point, mode: Mode, startView: View = view) {
    gesture.current = {
      mode,
      start: at,
      startView,
      last: at,
      lastTime: performance.now(),
      velocity: 0,
    };
  }

  function beginPinch() {
    const [a, b] = [...pointers.current.values()];
    if (!a || !b) return;
    gesture.current = {
      mode: 'pinch',
      start: midpoint(a, b),
      startView: view,
      last: midpoint(a, b),
      lastTime: performance.now(),
      velocity: 0,
      pinchFrom: { mid: midpoint(a, b), distance: distance(a, b) },
    };
    setDrag({ x: 0, y: 0 });
    setMoving(true);
  }

  function onPointerDown(e: ReactPointerEvent<HTMLElement>) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    // Moves outside the stage (over a button, off the screen) still belong to this gesture.
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks: the gesture works without capture.
    }
    const at = local(e.clientX, e.clientY);
    pointers.current.set(e.pointerId, at);
    if (pointers.current.size === 2) beginPinch();
    else if (pointers.current.size === 1) begin(at, 'press');
  }

  function onPointerMove(e: ReactPointerEvent<HTMLElement>) {
    if (!pointers.current.has(e.pointerId)) return;
    const at = local(e.clientX, e.clientY);
    pointers.current.set(e.pointerId, at);
    const g = gesture.current;
    if (!g) return;

    if (g.mode === 'pinch') {
      const [a, b] = [...pointers.current.values()];
      if (!a || !b || !g.pinchFrom) return;
      setView(pinchView(g.startView, g.pinchFrom, { mid: midpoint(a, b), distance: distance(a, b) }));
      return;
    }

    const now = performance.now();
    const dt = Math.max(1, now - g.lastTime);
    g.velocity = (at.x - g.last.x) / dt;
    g.last = at;
    g.lastTime = now;
    const dx = at.x - g.start.x;
    const dy = at.y - g.start.y;

    if (g.mode === 'press') {
      if (Math.hypot(dx, dy) < SLOP_PX) return;
      g.mode = g.startView.scale > 1 ? 'pan' : Math.abs(dx) >= Math.abs(dy) ? 'swipe' : 'dismiss';
      setMoving(true);
    }
    const { size, photo } = box();
    if (g.mode === 'pan') {
      setView(clampView({ ...g.startView, x: g.startView.x + dx, y: g.startView.y + dy }, size, photo));
    } else if (g.mode === 'swipe') {
      setDrag({ x: dragOffset(index, count, dx), y: 0 });
    } else if (g.mode === 'dismiss') {
      setDrag({ x: 0, y: Math.max(0, dy) });
    }
  }

  function end(e: ReactPointerEvent<HTMLElement>, cancelled: boolean) {
    if (!pointers.current.delete(e.pointerId)) return;
    const g = gesture.current;
    if (!g) return;
    const { size, photo } = box();

    if (g.mode === 'pinch') {
      const settled = settle(view, size, photo);
      setView(settled);
      // One finger stays down: it pans (or swipes) from here; lifting it is no tap.
      const rest = [...pointers.current.values()][0];
      if (rest) begin(rest, settled.scale > 1 ? 'pan' : 'swipe', settled);
      else finish();
      return;
    }
    if (pointers.current.size > 0) return;

    if (!cancelled && g.mode === 'press') tap(g.start);
    if (!cancelled && g.mode === 'swipe') {
      const target = swipeTarget(index, count, g.last.x - g.start.x, g.velocity, size.width);
      if (target !== index) onIndex(target);
    }
    if (!cancelled && g.mode === 'dismiss' && g.last.y - g.start.y > DISMISS_PX) onDismiss();
    finish();
  }

  function finish() {
    gesture.current = null;
    setDrag({ x: 0, y: 0 });
    setMoving(false);
  }

  function tap(at: Point) {
    const now = performance.now();
    const before = lastTap.current;
    if (before && now - before.time < DOUBLE_TAP_MS && distance(before.at, at) < DOUBLE_TAP_PX) {
      lastTap.current = null;
      const { size, photo } = box();
      setView((v) => toggleZoom(v, at, size, photo));
      return;
    }
    lastTap.current = { at, time: now };
  }

  // The wheel needs a listener that may cancel (React's onWheel is passive).
  useEffect(() => {
    const el = stage.current;
    if (!el) return undefined;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const lines = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : 1;
      // A trackpad pinch arrives as small ctrl+wheel steps: zoom faster per unit than for a wheel.
      const factor = Math.exp(-e.deltaY * lines * (e.ctrlKey ? 0.01 : 0.002));
      const rect = el.getBoundingClientRect();
      const at = { x: e.clientX - rect.left - rect.width / 2, y: e.clientY - rect.top - rect.height / 2 };
      const size = { width: rect.width, height: rect.height };
      const photo = fittedSize(size, naturalRef.current);
      setView((v) => zoomAt(v, v.scale * factor, at, size, photo));
    };
    // Safari's own pinch events would zoom the page behind.
    const stop = (e: Event) => e.preventDefault();
    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('gesturestart', stop);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('gesturestart', stop);
    };
  }, [stage]);

  const zoomBy = (factor: number) => {
    const { size, photo } = box();
    setView((v) => zoomAt(v, v.scale * factor, { x: 0, y: 0 }, size, photo));
  };

  return {
    view,
    drag,
    moving,
    zoomBy,
    reset: () => setView(FITTED),
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: (e) => end(e, false),
      onPointerCancel: (e) => end(e, true),
    },
  };
}
