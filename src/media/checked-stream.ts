/**
 * A page stream whose failures are BookAnalysisErrors, like every other failure of a container: the
 * runtime's DecompressionStream fails damaged data with a bare TypeError, and a deflate stream may
 * inflate to far more than the archive declared (a zip bomb served as a "page"). Found by fuzzing.
 */
import { BookAnalysisError } from './errors';

export function checkedStream(
  source: ReadableStream<Uint8Array>,
  options: { name: string; maxBytes: number },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        reader.cancel().catch(() => {});
        controller.error(
          error instanceof BookAnalysisError
            ? error
            : new BookAnalysisError('corrupt', `${options.name} cannot be decompressed; the archive is damaged`),
        );
        return;
      }
      if (next.done) {
        controller.close();
        return;
      }
      total += next.value.length;
      if (total > options.maxBytes) {
        reader.cancel().catch(() => {});
        controller.error(new BookAnalysisError('corrupt', `${options.name} is larger than the archive says`));
        return;
      }
      controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
