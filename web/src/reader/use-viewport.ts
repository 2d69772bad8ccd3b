/** Small browser hooks of the reader: the viewport, the screen wake lock, and the global key handler. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Viewport } from './fit';

function measure(): Viewport {
  return { width: innerWidth, height: innerHeight, devicePixelRatio: devicePixelRatio || 1 };
}

export function useViewport(): Viewport {
  const [viewport, setViewport] = useState(measure);
  useEffect(() => {
    let frame = 0;
    const onResize = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setViewport(measure()));
    };
    addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(frame);
      removeEventListener('resize', onResize);
    };
  }, []);
  return viewport;
}

interface WakeLockSentinelLike {
  release(): Promise<void>;
}

/** Keeps the screen on while reading; the lock is dropped by the browser when the tab hides, so retake it. */
export function useWakeLock(): void {
  useEffect(() => {
    const wakeLock = (
      navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<WakeLockSentinelLike> } }
    ).wakeLock;
    if (!wakeLock) return;
    let sentinel: WakeLockSentinelLike | null = null;
    let active = true;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      wakeLock
        .request('screen')
        .then((lock) => {
          if (active) sentinel = lock;
          else void lock.release();
        })
        .catch(() => {
          // Refused (battery saver, no user gesture yet): reading works without it.
        });
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', take);
      void sentinel?.release();
    };
  }, []);
}

/**
 * A keydown listener on the window that ignores typing in form fields. It always calls the handler of
 * the latest render: keys can come between a render and its effects (a page turn right after `s` split
 * the pages), and a listener re-attached by an effect would still act on the state before that render.
 */
export function useKeys(handler: (event: KeyboardEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))) {
        if (event.key !== 'Escape' && !(target.tagName === 'INPUT' && (target as HTMLInputElement).type === 'range')) {
          return;
        }
      }
      latest.current(event);
    };
    addEventListener('keydown', listener);
    return () => removeEventListener('keydown', listener);
  }, []);
}
