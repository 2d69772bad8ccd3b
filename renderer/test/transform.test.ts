/**
 * The renderer's image RPC (src/media/image-renderer.ts contract; DECISIONS.md §Books page images and
 * thumbnails): sizes, formats, quality, and failures as typed results.
 */
import { describe, expect, it } from 'vitest';
import { writeGif } from './fixtures/gif-writer';
import {
  ascii,
  jpegComponents,
  jpegOf,
  jpegPixels,
  ok,
  pngOf,
  renderer,
  syntheticPage,
  webpOf,
} from './support/images';

const PAGE = syntheticPage(1200, 1800);

describe('transform: output size (image-renderer contract: aspect kept, never enlarged)', () => {
  it('scales a JPEG page to a width, keeping the aspect ratio', async () => {
    const image = ok(await renderer.transform(await jpegOf(PAGE), 'image/jpeg', { width: 400, format: 'jpeg' }));
    expect(image).toMatchObject({ width: 400, height: 600, mediaType: 'image/jpeg' });
    const pixels = jpegPixels(image.bytes);
    expect([pixels.width, pixels.height]).toEqual([400, 600]);
  });

  it('scales to a height, and fits inside a box when both are given', async () => {
    const jpeg = await jpegOf(PAGE);
    expect(ok(await renderer.transform(jpeg, null, { height: 300, format: 'jpeg' }))).toMatchObject({
      width: 200,
      height: 300,
    });
    expect(ok(await renderer.transform(jpeg, null, { width: 500, height: 500, format: 'jpeg' }))).toMatchObject({
      width: 333,
      height: 500,
    });
  });

  it('never enlarges: a box larger than the image keeps the source size', async () => {
    const image = ok(await renderer.transform(await jpegOf(PAGE), null, { width: 5000, format: 'webp' }));
    expect(image).toMatchObject({ width: 1200, height: 1800, mediaType: 'image/webp' });
  });

  it('returns the original bytes when nothing would change', async () => {
    const jpeg = await jpegOf(PAGE);
    const image = ok(await renderer.transform(jpeg, 'image/jpeg', { width: 1200, format: 'jpeg' }));
    expect(new Uint8Array(image.bytes)).toEqual(new Uint8Array(jpeg));
  });

  it('thumbnails bound the longest side', async () => {
    const jpeg = await jpegOf(PAGE);
    const thumb = ok(await renderer.thumbnail(jpeg, 'image/jpeg', 400));
    expect(thumb).toMatchObject({ width: 267, height: 400, mediaType: 'image/jpeg' });
    const wide = ok(await renderer.thumbnail(await jpegOf(syntheticPage(900, 300)), null, 300, { format: 'webp' }));
    expect(wide).toMatchObject({ width: 300, height: 100, mediaType: 'image/webp' });
  });

  it('accepts the image as a stream', async () => {
    const stream = new Blob([await jpegOf(PAGE)]).stream();
    const image = ok(await renderer.transform(stream, 'image/jpeg', { width: 100, format: 'png' }));
    expect(image).toMatchObject({ width: 100, height: 150, mediaType: 'image/png' });
  });
});

describe('transform: formats (image-renderer contract: jpeg, lossy webp, png)', () => {
  it('writes JPEG, lossy WebP (VP8, never VP8L) and PNG with their signatures', async () => {
    const jpeg = await jpegOf(PAGE);
    const asJpeg = ok(await renderer.transform(jpeg, null, { width: 600, format: 'jpeg' }));
    expect([...new Uint8Array(asJpeg.bytes, 0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const asWebp = ok(await renderer.transform(jpeg, null, { width: 600, format: 'webp' }));
    expect(ascii(asWebp.bytes, 0, 4)).toBe('RIFF');
    expect(ascii(asWebp.bytes, 8, 8)).toBe('WEBPVP8 ');
    const asPng = ok(await renderer.transform(jpeg, null, { width: 600, format: 'png' }));
    expect([...new Uint8Array(asPng.bytes, 0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('honours quality for JPEG and WebP', async () => {
    const jpeg = await jpegOf(PAGE, 95);
    for (const format of ['jpeg', 'webp'] as const) {
      const low = ok(await renderer.transform(jpeg, null, { width: 800, format, quality: 30 }));
      const high = ok(await renderer.transform(jpeg, null, { width: 800, format, quality: 90 }));
      expect(low.bytes.byteLength).toBeLessThan(high.bytes.byteLength * 0.7);
    }
  });

  it('decodes PNG, WebP and GIF pages', async () => {
    const small = syntheticPage(300, 450, 4);
    for (const input of [pngOf(small), await webpOf(small)]) {
      const image = ok(await renderer.transform(input, null, { width: 150, format: 'jpeg' }));
      expect(image).toMatchObject({ width: 150, height: 225 });
    }
    const indices = new Uint8Array(64 * 48).map((_, i) => (i % 64 < 32 ? 0 : 1));
    const gif = writeGif(
      64,
      48,
      [
        [255, 0, 0],
        [0, 0, 255],
      ],
      indices,
    );
    const image = ok(await renderer.transform(gif.slice().buffer, 'image/gif', { format: 'jpeg' }));
    expect(image).toMatchObject({ width: 64, height: 48 });
    const pixels = jpegPixels(image.bytes);
    expect([...pixels.data.subarray(0, 3)].map((v) => Math.round(v / 16))).toEqual([16, 0, 0]); // red on the left
    const right = (10 * 64 + 60) * 3;
    expect([...pixels.data.subarray(right, right + 3)].map((v) => Math.round(v / 16))).toEqual([0, 0, 16]);
  });

  it('decodes Netpbm pages, binary and text, 8 and 16 bits a sample (issue 31 point 16)', async () => {
    const bytesOf = (header: string, samples: number[] | string = []) => {
      const head = new TextEncoder().encode(header);
      const body = typeof samples === 'string' ? new TextEncoder().encode(samples) : Uint8Array.from(samples);
      const out = new Uint8Array(head.length + body.length);
      out.set(head);
      out.set(body, head.length);
      return out.buffer as ArrayBuffer;
    };
    // 16×8 pixels: the left half one colour, the right half another (JPEG keeps halves apart).
    const halves = (left: number[], right: number[]) =>
      Array.from({ length: 16 * 8 }, (_, i) => (i % 16 < 8 ? left : right)).flat();
    const at = (raster: { data: Uint8Array; channels: number }, x: number, y: number) =>
      [...raster.data.subarray((y * 16 + x) * raster.channels, (y * 16 + x + 1) * raster.channels)].map((v) =>
        Math.round(v / 16),
      );
    const cases: Array<[string, ArrayBuffer, number[], number[]]> = [
      [
        'P6',
        bytesOf('P6\n# a scanner wrote this\n16 8\n255\n', halves([255, 0, 0], [0, 0, 255])),
        [16, 0, 0],
        [0, 0, 16],
      ],
      // maxval 65535: two big-endian bytes a sample.
      [
        'P6 16-bit',
        bytesOf('P6 16 8 65535\n', halves([0xff, 0xff, 0, 0, 0, 0], [0, 0, 0x80, 0, 0xff, 0xff])),
        [16, 0, 0],
        [0, 8, 16],
      ],
      ['P5 maxval 15', bytesOf('P5 16 8 15 ', halves([15], [0])), [16, 16, 16], [0, 0, 0]],
      ['P3 text', bytesOf('P3 16 8 255\n', halves([0, 255, 0], [255, 255, 255]).join(' ')), [0, 16, 0], [16, 16, 16]],
      // PBM: 1 is black; 16 pixels a row are two bytes, 0x00 0xff = white then black.
      ['P4', bytesOf('P4\n16 8\n', Array.from({ length: 8 }, () => [0x00, 0xff]).flat()), [16, 16, 16], [0, 0, 0]],
      ['P1 text', bytesOf('P1 16 8\n', halves([0], [1]).join('')), [16, 16, 16], [0, 0, 0]],
    ];
    for (const [name, input, left, right] of cases) {
      const probed = ok(await renderer.probe(input));
      expect([name, probed.width, probed.height]).toEqual([name, 16, 8]);
      const image = ok(await renderer.transform(input, null, { format: 'jpeg', quality: 100 }));
      expect([name, image.width, image.height, image.mediaType]).toEqual([name, 16, 8, 'image/jpeg']);
      const pixels = jpegPixels(image.bytes);
      const rgb = (values: number[]) => (pixels.channels === 1 ? [values[0]!, values[0]!, values[0]!] : values);
      expect([name, rgb(at(pixels, 2, 4)), rgb(at(pixels, 13, 4))]).toEqual([name, left, right]);
    }
    expect(ok(await renderer.probe(bytesOf('P6 7 5 255\n', new Array(105).fill(9)))).mediaType).toBe(
      'image/x-portable-pixmap',
    );
    // A PPM whose pixels end early is damaged, not a crash.
    const cut = await renderer.transform(bytesOf('P6 16 8 255\n', new Array(100).fill(0)), null, { format: 'jpeg' });
    expect(cut).toMatchObject({ ok: false, code: 'corrupt_input' });
  });

  it('keeps a grayscale JPEG grayscale and puts transparency on white', async () => {
    const gray = ok(
      await renderer.transform(await jpegOf(syntheticPage(400, 600, 1)), null, { width: 200, format: 'jpeg' }),
    );
    expect(jpegComponents(gray.bytes)).toBe(1);

    const transparent = syntheticPage(40, 40, 4);
    for (let i = 3; i < transparent.data.length; i += 4) transparent.data[i] = 0;
    const onWhite = jpegPixels(ok(await renderer.transform(pngOf(transparent), null, { format: 'jpeg' })).bytes);
    expect(Math.min(...onWhite.data)).toBeGreaterThan(245);
  });
});

describe('transform: failures are typed results (image-renderer contract: RENDER_ERROR_CODES)', () => {
  it('reports unsupported and corrupt input, and keeps working afterwards', async () => {
    const text = new TextEncoder().encode('not an image at all').buffer as ArrayBuffer;
    expect(await renderer.transform(text, 'image/jpeg', { format: 'jpeg' })).toMatchObject({
      ok: false,
      code: 'unsupported_input',
    });

    const jpeg = new Uint8Array(await jpegOf(PAGE));
    const damaged = jpeg.slice();
    damaged.fill(0x17, 20, 2000); // tables and frame header overwritten
    const corrupt = await renderer.transform(damaged.buffer, 'image/jpeg', { width: 100, format: 'jpeg' });
    expect(corrupt).toMatchObject({ ok: false, code: 'corrupt_input' });
    if (!corrupt.ok) expect(corrupt.message).toMatch(/JPEG image is damaged/);

    const png = new Uint8Array(pngOf(syntheticPage(50, 50, 4)));
    png.fill(0, 40, png.length - 20);
    expect(await renderer.transform(png.buffer, null, { format: 'jpeg' })).toMatchObject({
      ok: false,
      code: 'corrupt_input',
    });

    const after = ok(await renderer.transform(jpeg.buffer, null, { width: 100, format: 'png' }));
    expect(after.width).toBe(100);
  });

  it('rejects out-of-range options and oversized pictures', async () => {
    const jpeg = await jpegOf(syntheticPage(64, 64));
    for (const options of [{ width: 0 }, { height: 1.5 }, { quality: 101 }, { width: 9000 }]) {
      const result = await renderer.transform(jpeg, null, { format: 'jpeg', ...options });
      expect(result).toMatchObject({ ok: false, code: 'invalid_options' });
    }
    expect(await renderer.transform(jpeg, null, { format: 'gif' as never })).toMatchObject({ code: 'invalid_options' });
    expect(await renderer.thumbnail(jpeg, null, -1)).toMatchObject({ code: 'invalid_options' });

    // A PNG header claiming 20000×20000 px is refused before anything is decoded.
    const huge = new Uint8Array(pngOf(syntheticPage(8, 8, 4)));
    new DataView(huge.buffer).setUint32(16, 20000);
    new DataView(huge.buffer).setUint32(20, 20000);
    const tooLarge = await renderer.transform(huge.buffer, null, { width: 100, format: 'jpeg' });
    expect(tooLarge).toMatchObject({ ok: false, code: 'too_large' });
  });
});

describe('probe (image-renderer contract)', () => {
  it('reads size and real type from the header, whatever the caller called it', async () => {
    expect(ok(await renderer.probe(await jpegOf(syntheticPage(321, 123))))).toEqual({
      width: 321,
      height: 123,
      mediaType: 'image/jpeg',
    });
    expect(ok(await renderer.probe(pngOf(syntheticPage(7, 9, 4))))).toEqual({
      width: 7,
      height: 9,
      mediaType: 'image/png',
    });
    expect(ok(await renderer.probe(await webpOf(syntheticPage(33, 17, 4))))).toEqual({
      width: 33,
      height: 17,
      mediaType: 'image/webp',
    });
    const gif = writeGif(
      5,
      4,
      [
        [0, 0, 0],
        [255, 255, 255],
      ],
      new Uint8Array(20),
    );
    expect(ok(await renderer.probe(gif.slice().buffer))).toEqual({ width: 5, height: 4, mediaType: 'image/gif' });
  });
});

describe('transform: JPEG encoder buffer (image-renderer contract: any size encodes)', () => {
  it('encodes tiny images and incompressible noise at quality 100', async () => {
    const red = {
      width: 3,
      height: 2,
      channels: 4 as const,
      data: new Uint8Array(24).map((_, i) => (i % 4 === 1 || i % 4 === 2 ? 0 : 255)),
    };
    const tiny = ok(await renderer.transform(pngOf(red), null, { format: 'jpeg' }));
    const decoded = jpegPixels(tiny.bytes);
    expect([decoded.width, decoded.height]).toEqual([3, 2]);
    expect([...decoded.data.subarray(15, 18)].map((v) => Math.round(v / 32))).toEqual([8, 0, 0]); // last pixel red
    for (const channels of [1, 3] as const) {
      const noise = syntheticPage(256, 256, channels);
      let seed = 2463534242;
      for (let i = 0; i < noise.data.length; i++) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        noise.data[i] = seed & 0xff;
      }
      const jpeg = await jpegOf(noise, 100);
      const again = ok(await renderer.transform(jpeg, null, { width: 255, format: 'jpeg', quality: 100 }));
      expect(again.bytes.byteLength).toBeGreaterThan(256 * 256 * channels * 0.5);
    }
  });
});
