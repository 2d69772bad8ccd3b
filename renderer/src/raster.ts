/**
 * A decoded image in 8-bit interleaved channels: 1 = gray, 3 = RGB, 4 = RGBA (not premultiplied).
 * JPEG pages stay in 1 or 3 channels from decode to encode, which saves work on manga (gray) and never
 * materialises an alpha channel that a JPEG cannot carry.
 */
export type Channels = 1 | 3 | 4;

export interface Raster {
  width: number;
  height: number;
  channels: Channels;
  data: Uint8Array;
}

/** Bytes a raster of this size takes; the decoders check it against their budget before allocating. */
export function rasterBytes(width: number, height: number, channels: Channels): number {
  return width * height * channels;
}

/** RGBA for the encoders that only take RGBA (WebP, PNG). Returns the input when it already is. */
export function toRgba(raster: Raster): Raster {
  if (raster.channels === 4) return raster;
  const { width, height, data } = raster;
  const out = new Uint8Array(width * height * 4);
  for (let i = 0, o = 0; o < out.length; o += 4) {
    if (raster.channels === 1) {
      const v = data[i++]!;
      out[o] = v;
      out[o + 1] = v;
      out[o + 2] = v;
    } else {
      out[o] = data[i++]!;
      out[o + 1] = data[i++]!;
      out[o + 2] = data[i++]!;
    }
    out[o + 3] = 255;
  }
  return { width, height, channels: 4, data: out };
}

/**
 * RGB for the JPEG encoder. Transparent pixels are composited onto white, the page colour readers expect,
 * instead of dropping alpha (which would turn transparent areas black or into hidden colour garbage).
 */
export function toRgbOnWhite(raster: Raster): Raster {
  if (raster.channels !== 4) return raster;
  const { width, height, data } = raster;
  const out = new Uint8Array(width * height * 3);
  for (let i = 0, o = 0; i < data.length; i += 4, o += 3) {
    const alpha = data[i + 3]!;
    if (alpha === 255) {
      out[o] = data[i]!;
      out[o + 1] = data[i + 1]!;
      out[o + 2] = data[i + 2]!;
    } else {
      const white = 255 * (255 - alpha);
      out[o] = (data[i]! * alpha + white + 127) / 255;
      out[o + 1] = (data[i + 1]! * alpha + white + 127) / 255;
      out[o + 2] = (data[i + 2]! * alpha + white + 127) / 255;
    }
  }
  return { width, height, channels: 3, data: out };
}
