/**
 * Real RAR archives made by WinRAR/rar (Komga's and libarchive's test suites, /work/shared/corpus).
 * Runs in Node because the workers pool cannot read host files; the formats code is the same, only
 * the unrar WebAssembly module is compiled here from the file wrangler would bundle.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cbrContainer as cbr } from '../../src/media/cbr';
import { BookAnalysisError } from '../../src/media/errors';
import { memoryRangeReader } from '../../src/media/range-reader';
import { crc32 } from '../../src/media/crc32';
import type { RarEntry } from '../../src/media/rar/rar-entry';
import { extractPacked } from '../../src/media/rar/rar-extract';
import { readRarIndex } from '../../src/media/rar/rar-index';
import { chainOf, isPacked, planDecompression, toPackedEntry } from '../../src/media/rar/solid-plan';
import { unrarStats } from '../../src/media/rar/unrar-engine';

vi.mock('../../src/media/rar/unrar-wasm', async () => {
  const require = createRequire(import.meta.url);
  // The project's types describe workerd, which may not compile wasm from bytes; Node can.
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  const module = await compile(readFileSync(require.resolve('node-unrar-js/dist/js/unrar.wasm')));
  return { unrarWasmModule: () => module };
});

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
const file = (folder: string, name: string) => new Uint8Array(readFileSync(path.join(CORPUS, folder, name)));
const collect = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

/** `7z l -slt` listings (name, size, CRC) of every file entry; directories left out. */
const PNG_3108 = 0x2f7c823b;
const EXPECTED: Record<string, Array<[string, number, number]>> = {
  'komga-rar4-solid.rar': [1, 2, 3].map((n) => [`komga-${n}.png`, 3108, PNG_3108]),
  'komga-rar4.rar': [1, 2, 3].map((n) => [`komga-${n}.png`, 3108, PNG_3108]),
  'komga-rar5-solid.rar': [1, 2, 3].map((n) => [`komga-${n}.png`, 3108, PNG_3108]),
  'komga-rar5.rar': [['komga.png', 3108, PNG_3108]],
  'libarchive-rar5_compressed.rar': [['test.bin', 1200, 0x7cca70cd]],
  'libarchive-rar5_multiple_files.rar': [
    ['test1.bin', 4096, 0x7e13b2c6],
    ['test2.bin', 4096, 0xf166afcb],
    ['test3.bin', 4096, 0x9fb123d9],
    ['test4.bin', 4096, 0x10c43ed4],
  ],
  'libarchive-rar5_multiple_files_solid.rar': [
    ['test1.bin', 4096, 0x7e13b2c6],
    ['test2.bin', 4096, 0xf166afcb],
    ['test3.bin', 4096, 0x9fb123d9],
    ['test4.bin', 4096, 0x10c43ed4],
  ],
  'libarchive-rar5_solid.rar': [
    ['test.bin', 1200, 0x7cca70cd],
    ['test1.bin', 4096, 0x7e13b2c6],
    ['test2.bin', 4096, 0xf166afcb],
    ['test3.bin', 4096, 0x9fb123d9],
    ['test4.bin', 4096, 0x10c43ed4],
    ['test5.bin', 4096, 0xb9d155f2],
    ['test6.bin', 4096, 0x36a448ff],
  ],
  'libarchive-rar5_stored.rar': [['helloworld.txt', 29, 0x95a043b4]],
  ...Object.fromEntries(
    ['libarchive-rar_compress_best.rar', 'libarchive-rar_compress_normal.rar'].map((name) => [
      name,
      [
        ['LibarchiveAddingTest.html', 20111, 0x5e05a663],
        ['testlink', 25, 0x11fcd3f1],
        ['testdir/test.txt', 20, 0xbec8a242],
        ['testdir/LibarchiveAddingTest.html', 20111, 0x5e05a663],
      ],
    ]),
  ),
  'libarchive-rar_multi_lzss_blocks.rar': [['multi_lzss_blocks_test.txt', 20131111, 0x6ba21570]],
};

/** What each damaged or locked archive must be reported as (7z: wrong password / headers error / unexpected end). */
const BAD: Record<string, string> = {
  'komga-rar4-encrypted.rar': 'encrypted',
  'komga-rar5-encrypted.rar': 'encrypted',
  'libarchive-rar_encryption_header.rar': 'encrypted',
  'libarchive-rar5_bad_tables.rar': 'corrupt',
  'libarchive-rar5_distance_overflow.rar': 'corrupt',
  'libarchive-rar5_leftshift1.rar': 'corrupt',
  'libarchive-rar5_readtables_overflow.rar': 'corrupt',
  'libarchive-rar5_truncated_huff.rar': 'corrupt',
  'libarchive-rar_invalid1.rar': 'truncated',
};

/** Every file entry decompressed through the same path pages use, checked against its CRC-32. */
async function extractAll(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const reader = memoryRangeReader(bytes);
  const index = await readRarIndex(reader);
  const plan = planDecompression(index);
  const out = new Map<string, Uint8Array>();
  for (const entry of index.entries.filter((e: RarEntry) => !e.directory)) {
    let data: Uint8Array;
    if (isPacked(entry)) {
      const [start, end] = chainOf(plan, entry);
      data = await extractPacked(
        reader,
        index.format,
        plan.packed.slice(start, end + 1).map(toPackedEntry),
        entry.name,
      );
    } else {
      data = await reader.read(entry.dataOffset, entry.packedSize);
    }
    expect(crc32(data), entry.name).toBe(entry.crc32);
    out.set(entry.name, data);
  }
  return out;
}

describe.skipIf(!existsSync(CORPUS))(
  'CBR corpus: real RAR4/RAR5 archives (issue 3 point 6, corpus/MANIFEST.md)',
  () => {
    it.each(Object.keys(EXPECTED))('%s: lists and extracts every entry with a matching CRC-32', async (name) => {
      const listing = await readRarIndex(memoryRangeReader(file('cbr', name)));
      const files = listing.entries.filter((entry) => !entry.directory);
      expect(files.map((e) => [e.name, e.unpackedSize, e.crc32])).toEqual(EXPECTED[name]);
      const extracted = await extractAll(file('cbr', name));
      expect([...extracted].map(([entry, data]) => [entry, data.length])).toEqual(
        EXPECTED[name]!.map(([entry, size]) => [entry, size]),
      );
    });

    it('covers every archive in the corpus folder', () => {
      expect(readdirSync(path.join(CORPUS, 'cbr')).sort()).toEqual(Object.keys(EXPECTED).sort());
      expect(
        readdirSync(path.join(CORPUS, 'bad'))
          .filter((n) => n.endsWith('.rar'))
          .sort(),
      ).toEqual(Object.keys(BAD).sort());
    });

    it.each(Object.keys(EXPECTED).filter((n) => n.startsWith('komga')))(
      '%s: analyses to its PNG pages and serves them byte-identical',
      async (name) => {
        const bytes = file('cbr', name);
        const reader = memoryRangeReader(bytes);
        const analysis = await cbr.analyze(reader);
        expect(analysis.pages.map((p) => [p.fileName, p.mediaType, p.size])).toEqual(
          EXPECTED[name]!.map(([entry, size]) => [entry, 'image/png', size]),
        );
        const extracted = await extractAll(bytes);
        for (const page of analysis.pages) {
          const served = await collect((await cbr.openPage(reader, page.locator, analysis.containerIndex)).stream);
          expect(served).toEqual(extracted.get(page.fileName));
          expect(served.subarray(1, 4)).toEqual(new TextEncoder().encode('PNG'));
        }
        // Solid RAR4 and RAR5 with a 1 MiB dictionary decompress inside unrar's initial 16 MiB heap.
        expect((await unrarStats()).heapBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
      },
    );

    it.each(Object.keys(EXPECTED).filter((n) => n.startsWith('libarchive')))(
      '%s: holds no images, so analysis says "no image pages" instead of failing',
      async (name) => {
        const error = await cbr.analyze(memoryRangeReader(file('cbr', name))).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(BookAnalysisError);
        expect((error as BookAnalysisError).code).toBe('no_pages');
      },
    );

    it.each(Object.entries(BAD))('bad/%s: rejected as %s with a message, quickly', async (name, code) => {
      const started = performance.now();
      const error = await cbr.analyze(memoryRangeReader(file('bad', name))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BookAnalysisError);
      expect((error as BookAnalysisError).code).toBe(code);
      expect((error as BookAnalysisError).message).toMatch(/^The RAR archive/);
      expect(performance.now() - started).toBeLessThan(1000);
    });

    it('refuses a PPMd model larger than the heap ceiling and recovers with a fresh unrar instance', async () => {
      // compress_best packs its HTML with PPMd: first byte 0xa7 = PPM block with a memory byte (24 → 25 MiB).
      const bytes = file('cbr', 'libarchive-rar_compress_best.rar');
      const reader = memoryRangeReader(bytes);
      const [html] = (await readRarIndex(reader)).entries;
      expect([bytes[html!.dataOffset], bytes[html!.dataOffset + 1]]).toEqual([0xa7, 24]);
      const greedy = bytes.slice();
      greedy[html!.dataOffset + 1] = 0x7f; // 128 MiB model
      const error = await extractPacked(memoryRangeReader(greedy), 4, [toPackedEntry(html!)], html!.name).catch(
        (e: unknown) => e,
      );
      expect((error as BookAnalysisError).code).toBe('dictionary_too_large');
      const before = (await unrarStats()).instancesCreated;
      const data = await extractPacked(reader, 4, [toPackedEntry(html!)], html!.name);
      expect(crc32(data)).toBe(0x5e05a663);
      const stats = await unrarStats();
      expect(stats.instancesCreated).toBe(before + 1);
      expect(stats.peakHeapBytes).toBeLessThanOrEqual(48 * 1024 * 1024);
    });
  },
);
