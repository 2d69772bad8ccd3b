/**
 * HTTP door for bench/image-pipeline.bench.mjs, which times jobs from outside the isolate (workerd's
 * clock does not advance during synchronous work). Enabled only by LONGBOX_RENDERER__BENCH_ROUTE="true".
 *   POST /__bench/transform?width=800&format=webp&quality=80   body: image bytes → the encoded image
 *   GET  /__bench/memory   → wasm linear memory per live codec instance, in bytes
 */
import type { OutputFormat } from '../../src/media/image-renderer';
import { RenderFailure } from './errors';
import { transformImage } from './pipeline/transform';
import { wasmMemoryBytes } from './wasm-instances';

const optionalInt = (value: string | null) => (value === null ? undefined : Number(value));

export async function handleBenchRequest(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (request.method === 'GET' && url.pathname === '/__bench/memory') return Response.json(wasmMemoryBytes());
  if (request.method !== 'POST' || url.pathname !== '/__bench/transform') return null;
  try {
    const image = await transformImage(new Uint8Array(await request.arrayBuffer()), {
      format: (url.searchParams.get('format') ?? 'jpeg') as OutputFormat,
      width: optionalInt(url.searchParams.get('width')),
      height: optionalInt(url.searchParams.get('height')),
      quality: optionalInt(url.searchParams.get('quality')),
    });
    return new Response(image.bytes, {
      headers: { 'content-type': image.mediaType, 'x-width': String(image.width), 'x-height': String(image.height) },
    });
  } catch (error) {
    if (error instanceof RenderFailure)
      return Response.json({ code: error.code, message: error.message }, { status: 422 });
    throw error;
  }
}
