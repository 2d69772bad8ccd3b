/**
 * Pinch and double-tap zoom of a page view as a pure transform: `translate(x, y) scale(scale)` around the
 * view's top-left corner. Kept in bounds so the page never slides off screen; the reader resets it to
 * `NO_ZOOM` on every page turn (komga#602).
 */

export interface Zoom {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };
export const MAX_SCALE = 5;
export const DOUBLE_TAP_SCALE = 2.5;

export function isZoomed(zoom: Zoom): boolean {
  return zoom.scale > 1.001;
}

/** Scales by `factor` keeping the content under `focus` (view coordinates) where it is. */
export function zoomAround(zoom: Zoom, factor: number, focus: Point, size: { width: number; height: number }): Zoom {
  const scale = Math.min(MAX_SCALE, Math.max(1, zoom.scale * factor));
  const ratio = scale / zoom.scale;
  return clampZoom({ scale, x: focus.x - (focus.x - zoom.x) * ratio, y: focus.y - (focus.y - zoom.y) * ratio }, size);
}

/** Double tap: zoom into the tapped point, or back out when already zoomed. */
export function doubleTap(zoom: Zoom, at: Point, size: { width: number; height: number }): Zoom {
  if (isZoomed(zoom)) return NO_ZOOM;
  return zoomAround(zoom, DOUBLE_TAP_SCALE, at, size);
}

/** Moves a zoomed view by a finger's travel; an unzoomed view does not pan (the swipe turns the page). */
export function pan(zoom: Zoom, dx: number, dy: number, size: { width: number; height: number }): Zoom {
  if (!isZoomed(zoom)) return zoom;
  return clampZoom({ scale: zoom.scale, x: zoom.x + dx, y: zoom.y + dy }, size);
}

/** The distance between two touch points, for pinch factors. */
export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** Keeps the scaled content covering the view: x between width·(1 − scale) and 0, likewise y. */
export function clampZoom(zoom: Zoom, size: { width: number; height: number }): Zoom {
  if (!isZoomed(zoom)) return NO_ZOOM;
  const minX = size.width * (1 - zoom.scale);
  const minY = size.height * (1 - zoom.scale);
  return {
    scale: zoom.scale,
    x: Math.min(0, Math.max(minX, zoom.x)),
    y: Math.min(0, Math.max(minY, zoom.y)),
  };
}

export function zoomTransform(zoom: Zoom): string {
  return isZoomed(zoom) ? `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` : '';
}
