/**
 * The comic reader's preloading: the next views at the width they will be shown (preload.ts plans
 * which), and the next book's first page near the end, fetched once the view on screen has loaded, so a
 * page turn is served from the browser's cache.
 */
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Book } from '../api/types';
import { type FitMode, roundUpToStep, type Viewport } from './fit';
import type { PageGeometry, ReadingMode, View } from './layout';
import { pageUrl } from './page-url';
import { DEFAULT_PRELOAD, nearEnd, planPreload } from './preload';

/** Images kept referenced (so the browser does not drop them) at most; the oldest go first. */
const MAX_PRELOADED = 24;

export interface PreloadInput {
  bookId: string;
  views: View[];
  geometry: Map<number, PageGeometry>;
  /** The view on screen. */
  index: number;
  fit: FitMode;
  mode: ReadingMode;
  viewport: Viewport;
  nextBook: Book | undefined;
  /** The element showing the current view: preloading waits for its images. */
  stage: RefObject<HTMLElement | null>;
}

export function usePreload({ bookId, views, geometry, index, fit, mode, viewport, nextBook, stage }: PreloadInput) {
  const view: View | undefined = views[index];
  const preloaded = useRef(new Map<string, HTMLImageElement>());
  useEffect(() => {
    if (mode === 'webtoon' || !view) return;
    const urls = planPreload(bookId, views, geometry, index, {
      ...DEFAULT_PRELOAD,
      fit,
      mode,
      viewport,
    });
    if (nextBook && nearEnd(views, index, DEFAULT_PRELOAD.ahead)) {
      urls.push(pageUrl(nextBook.id, 1, roundUpToStep(viewport.width * viewport.devicePixelRatio)));
    }
    const cache = preloaded.current;
    let cancelled = false;
    // The view on screen first: preloads sent beside its images would share the connection and the
    // server's time with them (the first page of a book is the one the reader is waiting for).
    whenImagesLoaded(stage.current).then(() => {
      if (cancelled) return;
      for (const url of urls) {
        if (cache.has(url)) continue;
        const image = new Image();
        image.decoding = 'async';
        image.src = url;
        image.decode().catch(() => {});
        cache.set(url, image);
      }
      while (cache.size > MAX_PRELOADED) cache.delete(cache.keys().next().value!);
    });
    return () => {
      cancelled = true;
    };
  }, [index, views, geometry, fit, mode, viewport, bookId, nextBook, view]);
}

/** Resolves once every image under `root` has loaded or failed (at once when there is none). */
function whenImagesLoaded(root: HTMLElement | null): Promise<void> {
  const pending = [...(root?.querySelectorAll('img') ?? [])].filter((image) => !image.complete);
  return Promise.all(
    pending.map(
      (image) =>
        new Promise((resolve) => {
          image.addEventListener('load', resolve, { once: true });
          image.addEventListener('error', resolve, { once: true });
        }),
    ),
  ).then(() => {});
}
