/**
 * PNG with the Rust `png` crate (@jsquash/png's squoosh_png_bg.wasm) through our own wasm-bindgen glue.
 * The package's glue keeps one instance for the isolate's lifetime, but a corrupt PNG makes the Rust code
 * panic into a trap that leaves the input copy and the shadow stack allocated; here the instance is simply
 * replaced after a trap. Decoding always yields 8-bit RGBA; encoding writes 8-bit RGBA.
 */
// `?module`: the package ships a .d.ts for the raw wasm exports, which would shadow the bundled Module type.
import pngModule from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module';
import { corruptImage } from '../errors';
import type { Raster } from '../raster';
import { forgetInstance, instantiate, isOversized } from '../wasm-instances';

const NAME = 'png-codec';

interface PngExports {
  memory: WebAssembly.Memory;
  encode(resultPointer: number, data: number, length: number, width: number, height: number, bitDepth: number): void;
  decode(data: number, length: number): number;
  __wbindgen_add_to_stack_pointer(delta: number): number;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(pointer: number, size: number, align: number): void;
}

interface DecodedPng {
  data: Uint8Array;
  width: number;
  height: number;
}

/** One wasm instance plus the handle table wasm-bindgen uses to pass JS objects across. */
function createCodec() {
  const objects = new Map<number, unknown>();
  let nextHandle = 1;
  const keep = (value: unknown) => {
    objects.set(nextHandle, value);
    return nextHandle++;
  };
  let exports: PngExports;
  const bytes = (pointer: number, length: number) => new Uint8Array(exports.memory.buffer, pointer, length);
  const imports = {
    wbg: {
      __wbindgen_memory: () => keep(exports.memory),
      __wbg_buffer_a448f833075b71ba: (handle: number) => keep((objects.get(handle) as WebAssembly.Memory).buffer),
      __wbg_newwithbyteoffsetandlength_099217381c451830: (handle: number, offset: number, length: number) =>
        keep(new Uint16Array(objects.get(handle) as ArrayBuffer, offset >>> 0, length >>> 0)),
      __wbindgen_object_drop_ref: (handle: number) => objects.delete(handle),
      __wbg_newwithownedu8clampedarrayandsh_91db5987993a08fb: (
        pointer: number,
        length: number,
        w: number,
        h: number,
      ) => {
        const data = bytes(pointer >>> 0, length >>> 0).slice();
        exports.__wbindgen_free(pointer, length, 1);
        return keep({ data, width: w >>> 0, height: h >>> 0 } satisfies DecodedPng);
      },
      __wbindgen_throw: (pointer: number, length: number) => {
        throw new Error(new TextDecoder().decode(bytes(pointer, length)));
      },
    },
  };
  exports = instantiate(NAME, pngModule, imports).exports as unknown as PngExports;

  const copyIn = (data: Uint8Array) => {
    const pointer = exports.__wbindgen_malloc(data.byteLength, 1) >>> 0;
    bytes(pointer, data.byteLength).set(data);
    return pointer;
  };

  return {
    decode(png: Uint8Array): DecodedPng {
      const handle = exports.decode(copyIn(png), png.byteLength);
      const image = objects.get(handle) as DecodedPng;
      objects.delete(handle);
      return image;
    },
    encode(rgba: Uint8Array, width: number, height: number): Uint8Array {
      const result = exports.__wbindgen_add_to_stack_pointer(-16);
      try {
        exports.encode(result, copyIn(rgba), rgba.byteLength, width, height, 8);
        const [pointer, length] = new Int32Array(exports.memory.buffer, result, 2);
        const encoded = bytes(pointer! >>> 0, length! >>> 0).slice();
        exports.__wbindgen_free(pointer!, length!, 1);
        return encoded;
      } finally {
        exports.__wbindgen_add_to_stack_pointer(16);
      }
    },
  };
}

let codec: ReturnType<typeof createCodec> | null = null;

function withCodec<T>(use: (png: ReturnType<typeof createCodec>) => T): T {
  codec ??= createCodec();
  try {
    return use(codec);
  } catch (error) {
    codec = null; // a trap leaves the instance's heap and stack in an unknown state
    forgetInstance(NAME);
    throw error;
  } finally {
    if (codec && isOversized(NAME)) {
      codec = null;
      forgetInstance(NAME);
    }
  }
}

export function decodePng(png: Uint8Array): Raster {
  let image: DecodedPng;
  try {
    image = withCodec((codec) => codec.decode(png));
  } catch {
    throw corruptImage('PNG'); // the decoder panics (a wasm trap) on any malformed chunk or stream
  }
  return { width: image.width, height: image.height, channels: 4, data: image.data };
}

export function encodePng(raster: Raster): Uint8Array {
  if (raster.channels !== 4) throw new Error('encodePng takes RGBA');
  return withCodec((codec) => codec.encode(raster.data, raster.width, raster.height));
}
