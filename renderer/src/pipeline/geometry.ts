/**
 * Output size rules shared by every method: `width`/`height` bound the output (one given: the other
 * follows the aspect ratio; both: fit inside the box), the aspect ratio is kept, and an image is never
 * enlarged: a box larger than the source gives the source size.
 */
import { invalidOption } from '../errors';

/** Larger sides are refused up front; no page needs them and they would not fit in memory. */
export const MAX_OUTPUT_SIDE = 8192;

export interface Box {
  width?: number | undefined;
  height?: number | undefined;
}

export interface Size {
  width: number;
  height: number;
}

export function checkSide(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1 || value > MAX_OUTPUT_SIDE) {
    throw invalidOption(`${name} must be a whole number of pixels from 1 to ${MAX_OUTPUT_SIDE}`);
  }
}

export function fitSize(source: Size, box: Box): Size {
  const scales = [1];
  if (box.width !== undefined) scales.push(box.width / source.width);
  if (box.height !== undefined) scales.push(box.height / source.height);
  const scale = Math.min(...scales);
  if (scale === 1) return { width: source.width, height: source.height };
  return {
    width: Math.max(1, Math.round(source.width * scale)),
    height: Math.max(1, Math.round(source.height * scale)),
  };
}
