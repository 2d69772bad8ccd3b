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

const decoder = () => new TextDecoder();

/**
 * Passes on the frames of an SSE stream whose event `keep` accepts (in order: each decision is awaited
 * before the next frame), and every frame without data (comments, `retry`) as it is.
 */
export function filterFrames(
  keep: (event: PublishedEvent) => Promise<boolean>,
): TransformStream<Uint8Array, Uint8Array> {
  const text = decoder();
  let buffer = '';
  return new TransformStream({
    async transform(chunk, controller) {
      buffer += text.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').find((line) => line.startsWith('data: '));
        if (data === undefined || (await keep(JSON.parse(data.slice(6)) as PublishedEvent))) {
          controller.enqueue(encoder.encode(frame));
        }
      }
    },
  });
}
