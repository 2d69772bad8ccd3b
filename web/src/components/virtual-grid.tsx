/**
 * A grid of cards that stays smooth with tens of thousands of items: only the rows near the viewport
 * exist in the DOM (the page scrolls over a box of the full height), and items are fetched page by page
 * as their rows come near. Card size follows the container width, so every row height is known without
 * measuring and nothing shifts when data arrives.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualGridProps<T> {
  total: number;
  pageSize: number;
  /** Items of the 0-based page `page`. */
  loadPage(page: number): Promise<T[]>;
  render(item: T): ComponentChildren;
  placeholder: ComponentChildren;
  /** Changes whenever the list itself changes (filters, sort, live updates): cached pages are dropped. */
  listKey: string;
  minCardWidth?: number;
  gap?: number;
  /** Height of a card below its 2:3 cover (title and subtitle). */
  captionHeight?: number;
  label: string;
}

const OVERSCAN_ROWS = 3;

export function VirtualGrid<T>({
  total,
  pageSize,
  loadPage,
  render,
  placeholder,
  listKey,
  minCardWidth = 128,
  gap = 14,
  captionHeight = 64,
  label,
}: VirtualGridProps<T>) {
  const box = useRef<HTMLUListElement>(null);
  const [width, setWidth] = useState(0);
  const [range, setRange] = useState({ first: 0, last: 0 });
  const pages = useRef(new Map<number, T[] | Promise<void>>());
  const [, setLoadedCount] = useState(0);

  // The list the pages belong to: a page answered for an earlier listKey (filters changed while it loaded)
  // must not land among the new list's pages.
  const currentKey = useRef(listKey);
  useEffect(() => {
    currentKey.current = listKey;
    pages.current = new Map();
    setLoadedCount((count) => count + 1);
  }, [listKey]);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const columns = Math.max(1, Math.floor((width + gap) / (minCardWidth + gap)));
  const cardWidth = width > 0 ? (width - gap * (columns - 1)) / columns : minCardWidth;
  const rowHeight = Math.ceil(cardWidth * 1.5 + captionHeight + gap);
  const rows = Math.ceil(total / columns);

  useEffect(() => {
    function update() {
      const element = box.current;
      if (!element) return;
      const top = element.getBoundingClientRect().top;
      const first = Math.max(0, Math.floor(-top / rowHeight) - OVERSCAN_ROWS);
      const last = Math.min(rows, Math.ceil((window.innerHeight - top) / rowHeight) + OVERSCAN_ROWS);
      setRange((current) => (current.first === first && current.last === last ? current : { first, last }));
    }
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    };
    update();
    addEventListener('scroll', onScroll, { passive: true });
    addEventListener('resize', onScroll);
    return () => {
      removeEventListener('scroll', onScroll);
      removeEventListener('resize', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [rowHeight, rows]);

  const firstItem = range.first * columns;
  const lastItem = Math.min(total, range.last * columns);

  // Fetch the pages covering the visible items (each once).
  useEffect(() => {
    if (lastItem <= firstItem) return;
    const key = listKey;
    for (let page = Math.floor(firstItem / pageSize); page <= Math.floor((lastItem - 1) / pageSize); page++) {
      if (pages.current.has(page)) continue;
      const request = loadPage(page)
        .then((items) => {
          if (key !== currentKey.current) return;
          pages.current.set(page, items);
          setLoadedCount((count) => count + 1);
        })
        .catch(() => {
          pages.current.delete(page); // asked again when its rows next come into view
        });
      pages.current.set(page, request);
    }
  }, [firstItem, lastItem, listKey, pageSize]);

  const cells: ComponentChildren[] = [];
  for (let index = firstItem; index < lastItem; index++) {
    const page = pages.current.get(Math.floor(index / pageSize));
    const item = Array.isArray(page) ? page[index % pageSize] : undefined;
    const row = Math.floor(index / columns);
    const column = index % columns;
    cells.push(
      <li
        key={index}
        class="virtual-grid__cell"
        style={{
          transform: `translate(${column * (cardWidth + gap)}px, ${row * rowHeight}px)`,
          width: `${cardWidth}px`,
        }}
      >
        {item === undefined ? placeholder : render(item)}
      </li>,
    );
  }

  return (
    <ul
      ref={box}
      class="virtual-grid"
      aria-label={label}
      data-total={total}
      style={{ height: `${Math.max(0, rows * rowHeight - gap)}px` }}
    >
      {cells}
    </ul>
  );
}
