/**
 * Getting book files into a library (DECISIONS.md §Storage): request bodies are streamed straight into
 * R2 under the library's prefix — never buffered, so a file may be as large as one request allows —
 * and larger files go through R2 multipart. An existing object is replaced only on explicit request.
 */
import { AppError, badRequest, conflict, notFound } from '../lib/errors';
import type { UploadedFile, UploadedPart } from '../schemas/upload.schema';
import { joinKeyPath, MAX_KEY_BYTES, normalizeKeyPath } from '../storage/key-paths';
import { assertSeesAllContent, type Viewer } from '../repositories/visibility';
import type { LibrariesService } from './libraries.service';

/** Formats Longbox reads (API.md §1), with the media type stored on the object. */
export const BOOK_MEDIA_TYPES: Record<string, string> = {
  cbz: 'application/vnd.comicbook+zip',
  cbr: 'application/vnd.comicbook-rar',
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
  // Comics under their archive names (DECISIONS.md §Books): the scan reads them by content.
  zip: 'application/zip',
  rar: 'application/vnd.rar',
};

/** A request body with the length the client declared (R2 needs it to stream). */
export interface UploadBody {
  stream: ReadableStream<Uint8Array> | null;
  contentLength: string | undefined;
}

export class UploadsService {
  constructor(
    private readonly libraries: LibrariesService,
    private readonly bucket: R2Bucket,
  ) {}

  async putFile(
    viewer: Viewer,
    libraryId: string,
    relativePath: string,
    body: UploadBody,
    overwrite: boolean,
  ): Promise<UploadedFile> {
    const key = await this.resolveKey(viewer, libraryId, relativePath);
    const stream = requireBody(body, 'file');
    if (!overwrite) await this.assertAbsent(key);
    const object = await this.bucket.put(key, stream, {
      httpMetadata: { contentType: mediaTypeOf(key) },
      // Closes the race between the check above and this write: another upload may have landed.
      ...(overwrite ? {} : { onlyIf: { etagDoesNotMatch: '*' } }),
    });
    if (!object) throw existsConflict(key);
    return { path: key, size: object.size, etag: object.etag };
  }

  async createMultipart(viewer: Viewer, libraryId: string, relativePath: string, overwrite: boolean) {
    const key = await this.resolveKey(viewer, libraryId, relativePath);
    if (!overwrite) await this.assertAbsent(key);
    const upload = await this.bucket.createMultipartUpload(key, { httpMetadata: { contentType: mediaTypeOf(key) } });
    return { uploadId: upload.uploadId, path: key };
  }

  async uploadPart(
    viewer: Viewer,
    libraryId: string,
    relativePath: string,
    uploadId: string,
    partNumber: number,
    body: UploadBody,
  ): Promise<UploadedPart> {
    const key = await this.resolveKey(viewer, libraryId, relativePath);
    const stream = requireBody(body, 'part');
    const part = await this.bucket
      .resumeMultipartUpload(key, uploadId)
      .uploadPart(partNumber, stream)
      .catch(translateMultipartError);
    return { partNumber: part.partNumber, etag: part.etag };
  }

  async completeMultipart(
    viewer: Viewer,
    libraryId: string,
    relativePath: string,
    uploadId: string,
    parts: UploadedPart[],
    overwrite: boolean,
  ): Promise<UploadedFile> {
    const key = await this.resolveKey(viewer, libraryId, relativePath);
    // Another upload may have created the object since this one started.
    if (!overwrite) await this.assertAbsent(key);
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    const object = await this.bucket
      .resumeMultipartUpload(key, uploadId)
      .complete(ordered)
      .catch(translateMultipartError);
    return { path: key, size: object.size, etag: object.etag };
  }

  async abortMultipart(viewer: Viewer, libraryId: string, relativePath: string, uploadId: string): Promise<void> {
    const key = await this.resolveKey(viewer, libraryId, relativePath);
    await this.bucket.resumeMultipartUpload(key, uploadId).abort().catch(translateMultipartError);
  }

  /**
   * The object key of a file path inside the library; 404 for a library the viewer does not see, 403 for a
   * viewer with content restrictions (a file may belong to a series they do not see), 400 for a bad path.
   */
  private async resolveKey(viewer: Viewer, libraryId: string, relativePath: string): Promise<string> {
    const library = await this.libraries.getRecord(viewer, libraryId);
    assertSeesAllContent(viewer, "manage a library's files");
    const normalized = normalizeKeyPath(relativePath);
    if (!normalized.ok) throw pathError(normalized.reason);
    if (normalized.path === '') throw pathError('must name a file');
    if (!(extensionOf(normalized.path) in BOOK_MEDIA_TYPES)) {
      throw pathError(
        `unsupported file type; allowed: ${Object.keys(BOOK_MEDIA_TYPES)
          .map((e) => `.${e}`)
          .join(' ')}`,
      );
    }
    const key = joinKeyPath(library.path, normalized.path);
    if (new TextEncoder().encode(key).length > MAX_KEY_BYTES) {
      throw pathError(`the object key would exceed ${MAX_KEY_BYTES} bytes`);
    }
    return key;
  }

  private async assertAbsent(key: string): Promise<void> {
    if (await this.bucket.head(key)) throw existsConflict(key);
  }
}

function requireBody(body: UploadBody, what: 'file' | 'part'): ReadableStream<Uint8Array> {
  if (body.contentLength === undefined) {
    throw badRequest(
      'Content-Length header is required: the body is streamed into storage, which needs its length up front',
      [{ path: 'Content-Length', message: 'required' }],
    );
  }
  if (!/^\d+$/.test(body.contentLength)) {
    throw badRequest('Content-Length must be a non-negative integer', [
      { path: 'Content-Length', message: 'not an integer' },
    ]);
  }
  if (Number(body.contentLength) === 0 || !body.stream) {
    throw badRequest(`The ${what} is empty`, [{ path: 'body', message: 'must not be empty' }]);
  }
  return body.stream;
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function mediaTypeOf(key: string): string {
  return BOOK_MEDIA_TYPES[extensionOf(key)] ?? 'application/octet-stream';
}

function pathError(reason: string) {
  return badRequest(`Invalid file path: ${reason}`, [{ path: 'path', message: reason }]);
}

function existsConflict(key: string) {
  return conflict(`"${key}" already exists; pass ?overwrite=true to replace it`);
}

/**
 * R2 reports multipart failures as errors carrying its S3-style code, e.g.
 * "completeMultipartUpload: The specified multipart upload does not exist. (10024)".
 */
function translateMultipartError(error: unknown): never {
  if (error instanceof AppError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (/\(10024\)|NoSuchUpload|upload does not exist/i.test(message)) throw notFound('Multipart upload');
  if (/\(100(11|25|26)\)|EntityTooSmall|InvalidPart|InvalidPartOrder/i.test(message)) {
    throw badRequest(
      `Multipart upload rejected by storage: ${message.replace(/^\w+: /, '')}. Every part but the last must be ` +
        'at least 5 MiB and all of them the same size; list each part with the etag its upload returned',
    );
  }
  throw error;
}
