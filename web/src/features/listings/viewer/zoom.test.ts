import { describe, expect, it } from 'vitest';
import {
  clampView,
  dragOffset,
  FITTED,
  fittedSize,
  MAX_SCALE,
  pinchView,
  settle,
  swipeTarget,
  toggleZoom,
  zoomAt,
} from './zoom';

const phone = { width: 390, height: 844 };
// A 4:3 photo on a phone: full width, 292.5 px high.
const photo = fittedSize(phone, { width: 1280, height: 960 });

describe('fittedSize', () => {
  it('fits the photo inside the stage, ratio kept', () => {
    expect(photo).toEqual({ width: 390, height: 292.5 });
    expect(fittedSize(phone, { width: 600, height: 1200 })).toEqual({ width: 390, height: 780 });
  });

  it('takes the whole stage while the photo has no size yet', () => {
    expect(fittedSize(phone, null)).toEqual(phone);
    expect(fittedSize(phone, { width: 0, height: 0 })).toEqual(phone);
  });
});

describe('zooming', () => {
  it('keeps the point under the finger or cursor in place', () => {
    const tall = fittedSize(phone, { width: 600, height: 1200 });
    const view = zoomAt(FITTED, 2, { x: 100, y: 50 }, phone, tall);
    expect(view.scale).toBe(2);
    // The photo point under the finger was (100, 50) from the centre; at scale 2 it is drawn at
    // (x + 2 * 100, y + 2 * 50): still under the finger.
    expect(view.x + 2 * 100).toBeCloseTo(100);
    expect(view.y + 2 * 50).toBeCloseTo(50);
  });

  it('stays between fitted and the largest scale', () => {
    expect(zoomAt(FITTED, 10, { x: 0, y: 0 }, phone, photo).scale).toBe(MAX_SCALE);
    expect(zoomAt(FITTED, 0.2, { x: 0, y: 0 }, phone, photo)).toEqual(FITTED);
  });

  it('a double tap zooms in where tapped, a second one fits the photo again', () => {
    const zoomed = toggleZoom(FITTED, { x: 0, y: 0 }, phone, photo);
    expect(zoomed.scale).toBeGreaterThan(2);
    expect(toggleZoom(zoomed, { x: 10, y: 10 }, phone, photo)).toEqual(FITTED);
  });
});

describe('panning bounds', () => {
  it('stops the photo edge at the stage edge', () => {
    // At scale 2 the photo is 780 px wide: 195 px may go past each side.
    expect(clampView({ scale: 2, x: 500, y: 0 }, phone, photo).x).toBe(195);
    expect(clampView({ scale: 2, x: -500, y: 0 }, phone, photo).x).toBe(-195);
  });

  it('keeps a photo shorter than the stage centred vertically', () => {
    // 585 px high at scale 2 on an 844 px stage: no vertical pan.
    expect(clampView({ scale: 2, x: 0, y: 120 }, phone, photo).y).toBe(0);
  });
});

describe('pinching', () => {
  it('scales with the distance between the fingers and follows their midpoint', () => {
    const from = { mid: { x: 0, y: 0 }, distance: 100 };
    const view = pinchView(FITTED, from, { mid: { x: 20, y: 10 }, distance: 200 });
    expect(view).toEqual({ scale: 2, x: 20, y: 10 });
  });

  it('snaps back to fitted when released barely zoomed, and within bounds otherwise', () => {
    expect(settle({ scale: 1.02, x: 40, y: 40 }, phone, photo)).toEqual(FITTED);
    expect(settle({ scale: 0.85, x: 0, y: 0 }, phone, photo)).toEqual(FITTED);
    expect(settle({ scale: 5, x: 0, y: 0 }, phone, photo).scale).toBe(MAX_SCALE);
  });
});

describe('swiping', () => {
  it('moves on after a fifth of the width or a flick, else stays', () => {
    expect(swipeTarget(0, 3, -100, 0, 390)).toBe(1);
    expect(swipeTarget(1, 3, 100, 0, 390)).toBe(0);
    expect(swipeTarget(1, 3, -40, 0.1, 390)).toBe(1);
    expect(swipeTarget(1, 3, -40, 0.8, 390)).toBe(2);
  });

  it('goes nowhere past the first or last photo, and resists the drag there', () => {
    expect(swipeTarget(0, 3, 200, 0, 390)).toBe(0);
    expect(swipeTarget(2, 3, -200, 0, 390)).toBe(2);
    expect(dragOffset(0, 3, 90)).toBe(30);
    expect(dragOffset(0, 3, -90)).toBe(-90);
    expect(dragOffset(2, 3, -90)).toBe(-30);
  });
});
