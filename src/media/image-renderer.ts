/**
 * The API worker's side of the renderer worker (renderer/, deployed as `longbox-renderer`): what it can be
 * asked, what it answers, and a small client over the RENDERER service binding.
 *
 * The renderer does the WebAssembly work (libjpeg-turbo, libwebp, PNG, PDFium) in its own isolate so this
 * worker stays small and its 128 MB stay free. Calls are Workers RPC on the `ImageRenderer` entrypoint.
 * Failures cross the binding as values (`RenderResult`), because RPC keeps only an error's message: the
 * client turns them back into `ImageRenderError` with a `code` the routes map to a clear response
 * (`toAppError`).
 *
 * Sizing rules, everywhere: `width`/`height` bound the output (one of them: keep the aspect ratio; both:
 * fit inside the box); the aspect ratio is always kept and an image is never enlarged beyond its own size.
 *
 * Another backend can stand behind `RendererClient`: the Cloudflare Images binding (`env.IMAGES`) does
 * transform/thumbnail/probe with `IMAGES.input(stream).transform({ width, height, fit: 'scale-down' })
 * .output({ format, quality })` and `IMAGES.info(stream)`, computing the output size with the same rules,
 * while PDF pages still go to the renderer. It is billed per transformation, and local dev ignores
 * `quality`, so it is not the default (notes: edge-feasibility §1).
 */
import { AppError } from '../lib/errors';

export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface EncodeOptions {
  format: OutputFormat;
  /** 1–100 for JPEG and lossy WebP (default 80); PNG is lossless and ignores it. */
  quality?: number;
}

export interface TransformOptions extends EncodeOptions {
  width?: number;
  height?: number;
}

export interface ThumbnailOptions {
  format?: OutputFormat;
  quality?: number;
}

export interface PdfPageRequest extends TransformOptions {
  /** Object key of the PDF in the LIBRARY bucket. */
  key: string;
  /** 1-based. */
  pageNumber: number;
}

export interface RenderedImage {
  bytes: ArrayBuffer;
  mediaType: string;
  width: number;
  height: number;
}

export interface RenderedPdfPage extends RenderedImage {
  pageCount: number;
}

export interface ImageInfo {
  width: number;
  height: number;
  mediaType: string;
}

/** Image bytes: a stream is read once (and capped) by the renderer; an ArrayBuffer is copied by RPC. */
export type ImageInput = ReadableStream<Uint8Array> | ArrayBuffer;

export const RENDER_ERROR_CODES = [
  /** Not an image format the renderer decodes (it reads JPEG, PNG, WebP, GIF and Netpbm). */
  'unsupported_input',
  /** The bytes claim a supported format but cannot be decoded. */
  'corrupt_input',
  /** Input file or decoded pixels over the renderer's memory budget. */
  'too_large',
  /** Width, height, quality, maxSide or page number out of range. */
  'invalid_options',
  'pdf_not_found',
  'pdf_page_out_of_range',
  'pdf_encrypted',
] as const;
export type RenderErrorCode = (typeof RENDER_ERROR_CODES)[number];

export type RenderResult<T> = { ok: true; value: T } | { ok: false; code: RenderErrorCode; message: string };

/** The RPC methods of the renderer's `ImageRenderer` entrypoint (renderer/src/index.ts implements this). */
export interface ImageRendererRpc {
  transform(
    input: ImageInput,
    inputType: string | null,
    options: TransformOptions,
  ): Promise<RenderResult<RenderedImage>>;
  /** Longest side at most `maxSide`; JPEG quality 80 unless told otherwise. */
  thumbnail(
    input: ImageInput,
    inputType: string | null,
    maxSide: number,
    options?: ThumbnailOptions,
  ): Promise<RenderResult<RenderedImage>>;
  /** Size and real type from the header alone (nothing is decoded). */
  probe(input: ImageInput): Promise<RenderResult<ImageInfo>>;
  renderPdfPage(request: PdfPageRequest): Promise<RenderResult<RenderedPdfPage>>;
}

export class ImageRenderError extends Error {
  override readonly name = 'ImageRenderError';
  readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** What routes and services use: the RPC methods with failures thrown as `ImageRenderError`. */
export interface RendererClient {
  transform(input: ImageInput, inputType: string | null, options: TransformOptions): Promise<RenderedImage>;
  thumbnail(
    input: ImageInput,
    inputType: string | null,
    maxSide: number,
    options?: ThumbnailOptions,
  ): Promise<RenderedImage>;
  probe(input: ImageInput): Promise<ImageInfo>;
  renderPdfPage(request: PdfPageRequest): Promise<RenderedPdfPage>;
}

/**
 * The renderer could not be asked at all: the service binding's call itself failed (the worker is not
 * deployed or not running, the connection was lost, it was reset). Its own failures come back as values, so
 * a rejected call always means this. A 503 to clients; a retry for queue consumers (issue 21).
 */
export class RendererUnavailable extends AppError {
  constructor(cause: unknown) {
    super('ServiceUnavailable', 'The image renderer is unavailable; try again shortly, or request the original page', {
      headers: { 'Retry-After': '5' },
    });
    this.cause = cause;
  }
}

async function unwrap<T>(call: () => Promise<RenderResult<T>>): Promise<T> {
  let result: RenderResult<T>;
  try {
    result = await call();
  } catch (error) {
    throw new RendererUnavailable(error);
  }
  if (result.ok) return result.value;
  throw new ImageRenderError(result.code, result.message);
}

/** Client over the service binding: `createRendererClient(env.RENDERER)`. */
export function createRendererClient(binding: ImageRendererRpc): RendererClient {
  return {
    transform: (input, inputType, options) => unwrap(() => binding.transform(input, inputType, options)),
    thumbnail: (input, inputType, maxSide, options) =>
      unwrap(() => binding.thumbnail(input, inputType, maxSide, options)),
    probe: (input) => unwrap(() => binding.probe(input)),
    renderPdfPage: (request) => unwrap(() => binding.renderPdfPage(request)),
  };
}

const ERROR_KIND_BY_CODE: Record<RenderErrorCode, AppError['kind']> = {
  unsupported_input: 'UnprocessableEntity',
  corrupt_input: 'UnprocessableEntity',
  too_large: 'UnprocessableEntity',
  invalid_options: 'BadRequest',
  pdf_not_found: 'NotFound',
  pdf_page_out_of_range: 'NotFound',
  pdf_encrypted: 'UnprocessableEntity',
};

/** The API error for a renderer failure; the renderer's message is already written for the user. */
export function toAppError(error: ImageRenderError): AppError {
  return new AppError(ERROR_KIND_BY_CODE[error.code], error.message);
}
