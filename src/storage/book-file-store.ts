/**
 * The original book files in the LIBRARY bucket, as `GET /books/{id}/file` reads them: the version an object
 * is at (size, etag, upload time) and one ranged read pinned to a version. A read returns the version it
 * found, so the caller can answer from one R2 request and notice when the object is no longer the one it
 * expected (the read then has no body).
 */

export interface FileVersion {
  size: number;
  /** R2's etag, unquoted (as the scan stores it). */
  etag: string;
  /** The quoted form for the ETag header. */
  httpEtag: string;
  uploaded: Date;
}

export interface FileSpan {
  offset: number;
  length: number;
}

export interface FileRead {
  version: FileVersion;
  /** The bytes asked for; null when the object is no longer at the pinned etag. */
  body: ReadableStream<Uint8Array> | null;
}

export interface BookFileStore {
  /** The object's current version; null when it is gone. */
  version(path: string): Promise<FileVersion | null>;
  /** `span` of the object (all of it when null), only while it is at `etag`; null when it is gone. */
  read(path: string, span: FileSpan | null, etag: string): Promise<FileRead | null>;
}

const versionOf = (object: R2Object): FileVersion => ({
  size: object.size,
  etag: object.etag,
  httpEtag: object.httpEtag,
  uploaded: object.uploaded,
});

export function r2BookFileStore(bucket: R2Bucket): BookFileStore {
  return {
    async version(path) {
      const head = await bucket.head(path);
      return head ? versionOf(head) : null;
    },
    async read(path, span, etag) {
      const object = await bucket.get(path, { onlyIf: { etagMatches: etag }, ...(span ? { range: span } : {}) });
      if (!object) return null;
      return { version: versionOf(object), body: 'body' in object ? object.body : null };
    },
  };
}
