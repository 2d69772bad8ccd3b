/**
 * Analyses one book file with Longbox's own analysis code (src/media analyzeBook, the function the
 * scanner calls) over a file-backed RangeReader that reads at offsets exactly as r2RangeReader issues
 * ranged R2 gets, and reports what that cost:
 *
 *   node --expose-gc --import tsx --import ./bench/lib/wasm-modules.mjs bench/lib/analysis-probe.ts <format> <file>
 *
 * Prints JSON: file size, range reads and bytes read (counted like r2RangeReader's stats), page count,
 * and memory — the JS heap (`heapUsed`) plus off-heap buffers (`external`, which holds ArrayBuffers and
 * typed arrays) sampled after a full GC as the baseline, then at every read and every 2 ms during the
 * analysis; the peak is the largest sample minus the baseline. Unrar's wasm heap is reported separately
 * (it only exists when a compressed entry had to be decoded).
 */
import { open } from 'node:fs/promises';
import { analyzeBook } from '../../src/media';
import type { BookFormat } from '../../src/media/container';
import type { CountingRangeReader, ReadStats } from '../../src/media/range-reader';
import { unrarStats } from '../../src/media/rar/unrar-engine';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const used = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, total: m.heapUsed + m.external };
};

let peak = { heap: 0, external: 0, total: 0 };
function sample() {
  const now = used();
  peak = {
    heap: Math.max(peak.heap, now.heap),
    external: Math.max(peak.external, now.external),
    total: Math.max(peak.total, now.total),
  };
}

const STREAM_CHUNK = 64 * 1024;

async function fileRangeReader(path: string): Promise<CountingRangeReader & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const size = (await handle.stat()).size;
  const stats: ReadStats = { reads: 0, bytes: 0 };
  const check = (offset: number, length: number) => {
    if (offset < 0 || length < 0 || offset + length > size) throw new Error(`read past the end: ${offset}+${length}`);
  };
  return {
    size,
    stats,
    async read(offset, length) {
      check(offset, length);
      stats.reads += 1;
      stats.bytes += length;
      const out = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(out, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error('short read');
        done += bytesRead;
      }
      sample();
      return out;
    },
    async stream(offset, length) {
      check(offset, length);
      stats.reads += 1;
      stats.bytes += length;
      let position = offset;
      const end = offset + length;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (position >= end) {
            controller.close();
            return;
          }
          const chunk = new Uint8Array(Math.min(STREAM_CHUNK, end - position));
          await handle.read(chunk, 0, chunk.length, position);
          position += chunk.length;
          sample();
          controller.enqueue(chunk);
        },
      });
    },
    close: () => handle.close(),
  };
}

async function main() {
  const [format, path] = process.argv.slice(2) as [BookFormat, string];
  const reader = await fileRangeReader(path);
  gc?.();
  gc?.();
  const baseline = used();
  peak = { ...baseline };
  const timer = setInterval(sample, 2);
  const started = process.hrtime.bigint();
  let analysis: Awaited<ReturnType<typeof analyzeBook>>;
  try {
    analysis = await analyzeBook(format, reader);
  } finally {
    clearInterval(timer);
  }
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  sample();
  const unrar = await unrarStats();
  await reader.close();
  console.log(
    JSON.stringify({
      format,
      size: reader.size,
      reads: reader.stats.reads,
      bytesRead: reader.stats.bytes,
      pageCount: analysis.pageCount,
      title: analysis.metadata.title,
      elapsedMs,
      baseline,
      peak,
      peakAboveBaseline: {
        heap: peak.heap - baseline.heap,
        external: peak.external - baseline.external,
        total: peak.total - baseline.total,
      },
      unrarHeapBytes: unrar.peakHeapBytes,
    }),
  );
}

await main();
