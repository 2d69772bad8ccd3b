/**
 * Server-Sent Events framing (API.md §6, DECISIONS.md §Tasks and events): `id`, `event`, `data` lines
 * and a blank line; comments (`: keep-alive`) keep idle connections open through proxies.
 */
import type { PublishedEvent } from './events';

const encoder = new TextEncoder();

export function sseFrame(id: number, event: PublishedEvent): Uint8Array {
  return encoder.encode(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

export const SSE_KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** `retry` tells EventSource clients how long to wait before reconnecting. */
export const SSE_PREAMBLE = encoder.encode('retry: 3000\n\n');

/** API.md §8: every 15 seconds. */
export const KEEP_ALIVE_MS = 15_000;
