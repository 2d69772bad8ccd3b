/**
 * Worker entry of longbox-renderer. The API worker calls the `ImageRenderer` entrypoint over its RENDERER
 * service binding (Workers RPC); the contract and the API-side client are in src/media/image-renderer.ts.
 * There is no public HTTP surface: fetch answers 404, except the benchmark route when its var enables it.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import type {
  ImageInfo,
  ImageInput,
  ImageRendererRpc,
  PdfPageRequest,
  RenderedImage,
  RenderedPdfPage,
  RenderResult,
  ThumbnailOptions,
  TransformOptions,
} from '../../src/media/image-renderer';
import { handleBenchRequest } from './bench-route';
import type { RendererEnv } from './env';
import { invalidOption, RenderFailure } from './errors';
import { readInput } from './input';
import { renderPdfPage } from './pdf/render-page';
import { checkSide } from './pipeline/geometry';
import { transformImage } from './pipeline/transform';
import { MEDIA_TYPES, probeImage } from './probe';

/** Failures the caller can act on become values; anything else is a bug and stays an exception. */
async function settle<T>(work: () => Promise<T>): Promise<RenderResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof RenderFailure) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

export class ImageRenderer extends WorkerEntrypoint<RendererEnv> implements ImageRendererRpc {
  transform(
    input: ImageInput,
    _inputType: string | null,
    options: TransformOptions,
  ): Promise<RenderResult<RenderedImage>> {
    // The media type is a hint from a file name; the bytes decide (probe.ts).
    return settle(async () => transformImage(await readInput(input), options));
  }

  thumbnail(
    input: ImageInput,
    _inputType: string | null,
    maxSide: number,
    options: ThumbnailOptions = {},
  ): Promise<RenderResult<RenderedImage>> {
    return settle(async () => {
      if (maxSide === undefined) throw invalidOption('maxSide is required');
      checkSide('maxSide', maxSide);
      const format = options.format ?? 'jpeg';
      return transformImage(await readInput(input), { ...options, format, width: maxSide, height: maxSide });
    });
  }

  probe(input: ImageInput): Promise<RenderResult<ImageInfo>> {
    return settle(async () => {
      const { format, width, height } = probeImage(await readInput(input));
      return { width, height, mediaType: MEDIA_TYPES[format] };
    });
  }

  renderPdfPage(request: PdfPageRequest): Promise<RenderResult<RenderedPdfPage>> {
    return settle(() => renderPdfPage(this.env.LIBRARY, request));
  }
}

export default {
  async fetch(request, env) {
    if (env.LONGBOX_RENDERER__BENCH_ROUTE === 'true') {
      const response = await handleBenchRequest(request);
      if (response) return response;
    }
    return new Response('Not found', { status: 404 });
  },
} satisfies ExportedHandler<RendererEnv>;
