/** Keyboard shortcuts, tap zones, swipes and zoom of the comic reader (issue 12 point 3). */
import { describe, expect, it } from 'vitest';
import { actionForKey, actionForSwipe, actionForTap } from './controls';
import { clampZoom, doubleTap, isZoomed, NO_ZOOM, pan, zoomAround } from './zoom';

describe('reader controls', () => {
  it('turns pages with the arrows according to the reading direction', () => {
    expect(actionForKey({ key: 'ArrowRight' }, 'ltr')).toBe('next');
    expect(actionForKey({ key: 'ArrowLeft' }, 'ltr')).toBe('previous');
    expect(actionForKey({ key: 'ArrowLeft' }, 'rtl')).toBe('next');
    expect(actionForKey({ key: 'ArrowRight' }, 'rtl')).toBe('previous');
    expect(actionForKey({ key: 'ArrowDown' }, 'ttb')).toBe('next');
    expect(actionForKey({ key: 'ArrowDown' }, 'webtoon')).toBeNull();
  });

  it('maps the other shortcuts and leaves browser shortcuts alone', () => {
    expect(actionForKey({ key: ' ' }, 'ltr')).toBe('next');
    expect(actionForKey({ key: ' ', shiftKey: true }, 'ltr')).toBe('previous');
    expect(actionForKey({ key: '?' }, 'ltr')).toBe('toggleHelp');
    expect(actionForKey({ key: 'Home' }, 'rtl')).toBe('first');
    expect(actionForKey({ key: 'n' }, 'ltr')).toBe('nextBook');
    expect(actionForKey({ key: 's' }, 'ltr')).toBe('toggleSplit');
    expect(actionForKey({ key: 'r', ctrlKey: true }, 'ltr')).toBeNull();
    expect(actionForKey({ key: 'x' }, 'ltr')).toBeNull();
  });

  it('uses the outer thirds of the screen as tap zones, mirrored in RTL', () => {
    expect(actionForTap(10, 400, 390, 844, 'ltr')).toBe('previous');
    expect(actionForTap(380, 400, 390, 844, 'ltr')).toBe('next');
    expect(actionForTap(195, 400, 390, 844, 'ltr')).toBe('toggleMenu');
    expect(actionForTap(10, 400, 390, 844, 'rtl')).toBe('next');
    expect(actionForTap(195, 800, 390, 844, 'ttb')).toBe('next');
  });

  it('turns pages on horizontal swipes only', () => {
    expect(actionForSwipe(-120, 10, 'ltr')).toBe('next');
    expect(actionForSwipe(120, 10, 'ltr')).toBe('previous');
    expect(actionForSwipe(-120, 10, 'rtl')).toBe('previous');
    expect(actionForSwipe(-20, 0, 'ltr')).toBeNull();
    expect(actionForSwipe(-100, 300, 'ltr')).toBeNull();
    expect(actionForSwipe(0, -200, 'ttb')).toBe('next');
    expect(actionForSwipe(-200, 0, 'webtoon')).toBeNull();
  });
});

describe('zoom', () => {
  const size = { width: 400, height: 800 };

  it('zooms into the double-tapped point and back out', () => {
    const zoomed = doubleTap(NO_ZOOM, { x: 200, y: 400 }, size);
    expect(zoomed).toEqual({ scale: 2.5, x: -300, y: -600 });
    expect(doubleTap(zoomed, { x: 10, y: 10 }, size)).toEqual(NO_ZOOM);
  });

  it('keeps the page covering the screen while pinching and panning', () => {
    const zoomed = zoomAround(NO_ZOOM, 2, { x: 0, y: 0 }, size);
    expect(zoomed).toEqual({ scale: 2, x: 0, y: 0 });
    expect(pan(zoomed, 1000, 1000, size)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(pan(zoomed, -1000, -5000, size)).toEqual({ scale: 2, x: -400, y: -800 });
    expect(zoomAround(zoomed, 10, { x: 0, y: 0 }, size).scale).toBe(5);
    expect(zoomAround(zoomed, 0.1, { x: 0, y: 0 }, size)).toEqual(NO_ZOOM);
  });

  it('does not pan an unzoomed page (the swipe turns it instead)', () => {
    expect(pan(NO_ZOOM, 50, 0, size)).toEqual(NO_ZOOM);
    expect(isZoomed(clampZoom({ scale: 1, x: 30, y: 0 }, size))).toBe(false);
  });
});
