/**
 * Reads the caller's image (a stream over RPC, or an ArrayBuffer) into one buffer, refusing oversized
 * input while reading instead of after.
 */
import type { ImageInput } from '../../src/media/image-renderer';
import { formatMiB, RenderFailure } from './errors';

export const MAX_IMAGE_INPUT_BYTES = 32 * 1024 * 1024;

const tooLarge = () =>
  new RenderFailure(
    'too_large',
    `The image file is larger than ${formatMiB(MAX_IMAGE_INPUT_BYTES)}, the most the renderer reads`,
  );

export async function readInput(input: ImageInput, limit = MAX_IMAGE_INPUT_BYTES): Promise<Uint8Array> {
  if (input instanceof ArrayBuffer) {
    if (input.byteLength > limit) throw tooLarge();
    return new Uint8Array(input);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = input.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
