/**
 * Pointer gestures on the comic reader's page: one finger taps (edges turn at once; the middle waits a
 * moment for a double tap, which zooms), swipes or pans a zoomed page; two fingers pinch. The zoom they
 * produce is owned here and resets on every page turn (komga#602).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  clampZoom,
  distance,
  doubleTap,
  isZoomed,
  midpoint,
  NO_ZOOM,
  type Point,
  pan,
  type Zoom,
  zoomAround,
} from './zoom';

const DOUBLE_TAP_MS = 280;
const TAP_TRAVEL = 12;

interface Size {
  width: number;
  height: number;
}

export interface PageGestureOptions {
  /** The view on screen: a new one resets the zoom. */
  turn: number;
  size: Size;
  onTap: (point: Point) => void;
  onSwipe: (dx: number, dy: number) => void;
}

export interface PointerHandlers {
  down(event: PointerEvent): void;
  move(event: PointerEvent): void;
  up(event: PointerEvent): void;
  cancel(event: PointerEvent): void;
}

/** The page's zoom and the pointer handlers that change it (or tap, or swipe). */
export function usePageGestures({ turn, ...options }: PageGestureOptions): { zoom: Zoom; handlers: PointerHandlers } {
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);
  useEffect(() => {
    setZoom(NO_ZOOM);
  }, [turn]);
  const handlers = usePointerHandlers({ ...options, zoom, setZoom });
  return { zoom, handlers };
}

interface PointerOptions extends Omit<PageGestureOptions, 'turn'> {
  zoom: Zoom;
  setZoom: (zoom: Zoom) => void;
}

function usePointerHandlers(options: PointerOptions): PointerHandlers {
  const state = useRef({
    pointers: new Map<number, Point>(),
    start: null as null | { x: number; y: number; time: number },
    last: null as null | Point,
    pinch: null as null | { distance: number; zoom: Zoom },
    pinched: false,
    lastTap: null as null | { x: number; y: number; time: number },
    tapTimer: 0 as ReturnType<typeof setTimeout> | 0,
  });
  const latest = useRef(options);
  latest.current = options;

  const point = (event: PointerEvent): Point => ({ x: event.clientX, y: event.clientY });

  return {
    down(event: PointerEvent) {
      const s = state.current;
      (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
      s.pointers.set(event.pointerId, point(event));
      if (s.pointers.size === 1) {
        s.start = { ...point(event), time: Date.now() };
        s.last = point(event);
        s.pinched = false;
      } else if (s.pointers.size === 2) {
        const [a, b] = [...s.pointers.values()] as [Point, Point];
        s.pinch = { distance: distance(a, b), zoom: latest.current.zoom };
        s.pinched = true;
      }
    },
    move(event: PointerEvent) {
      const s = state.current;
      if (!s.pointers.has(event.pointerId)) return;
      s.pointers.set(event.pointerId, point(event));
      const { setZoom, size, zoom } = latest.current;
      if (s.pointers.size === 2 && s.pinch) {
        const [a, b] = [...s.pointers.values()] as [Point, Point];
        const factor = distance(a, b) / Math.max(1, s.pinch.distance);
        setZoom(zoomAround(s.pinch.zoom, factor, midpoint(a, b), size));
      } else if (s.pointers.size === 1 && s.last && isZoomed(zoom)) {
        const now = point(event);
        setZoom(pan(zoom, now.x - s.last.x, now.y - s.last.y, size));
        s.last = now;
      }
    },
    up(event: PointerEvent) {
      const s = state.current;
      s.pointers.delete(event.pointerId);
      if (s.pointers.size > 0) return;
      s.pinch = null;
      const start = s.start;
      s.start = null;
      if (!start || s.pinched) return;
      const end = point(event);
      const dx = end.x - start.x;
      const dy = end.y - start.y;
      const { zoom, setZoom, size, onTap, onSwipe } = latest.current;
      if (Math.hypot(dx, dy) <= TAP_TRAVEL) {
        const now = Date.now();
        const previous = s.lastTap;
        if (
          previous &&
          now - previous.time < DOUBLE_TAP_MS &&
          Math.hypot(end.x - previous.x, end.y - previous.y) < 40
        ) {
          if (s.tapTimer) clearTimeout(s.tapTimer);
          s.tapTimer = 0;
          s.lastTap = null;
          setZoom(doubleTap(zoom, end, size));
          return;
        }
        // A double tap is two taps in the middle or on a zoomed page; quick taps on an edge turn pages.
        const middle = end.x > size.width / 3 && end.x < (size.width * 2) / 3;
        s.lastTap = middle || isZoomed(zoom) ? { ...end, time: now } : null;
        if (isZoomed(zoom)) return;
        if (!middle) {
          onTap(end);
          return;
        }
        s.tapTimer = setTimeout(() => {
          s.tapTimer = 0;
          if (s.lastTap && s.lastTap.time === now) onTap(end);
        }, DOUBLE_TAP_MS);
        return;
      }
      if (isZoomed(zoom)) {
        setZoom(clampZoom(zoom, size));
        return;
      }
      onSwipe(dx, dy);
    },
    cancel(event: PointerEvent) {
      const s = state.current;
      s.pointers.delete(event.pointerId);
      if (s.pointers.size === 0) {
        s.start = null;
        s.pinch = null;
      }
    },
  };
}
