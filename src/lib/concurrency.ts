/** Bounded concurrency for work over many items (pages of a PDF tree, books of a scan or a queue batch). */
import { yieldToEventLoop } from './event-loop';

export interface MapLimitedOptions {
  /**
   * A timer turn after each item (src/lib/event-loop.ts): background work over many books lets the
   * runtime take in requests and queue sends between them.
   */
  yieldBetween?: boolean;
}

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  options: MapLimitedOptions = {},
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
      if (options.yieldBetween) await yieldToEventLoop();
    }
  });
  await Promise.all(workers);
  return results;
}
