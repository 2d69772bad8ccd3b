/**
 * Bench-only worker: how many R2 GETs serving each EPUB resource costs. `GET /resource-reads?book=<id>` reads
 * the book's stored Readium index (books.readium_index, written at scan) and serves every resource through the
 * function the `/komga/api/v1/books/{id}/resource/{path}` route calls (`openEpubResource`, pinned to the
 * scanned etag), over a bucket that counts its `get` calls; each body is read to the end. Answers
 * `[{path, size, gets, bytes}]`. Code inside workerd cannot time itself; it can count.
 */
import type { ReadiumIndex } from '../../src/media/epub/readium-index';
import { openEpubResource } from '../../src/storage/epub-resource';

interface BenchEnv {
  LIBRARY: R2Bucket;
  DB: D1Database;
}

function counting(bucket: R2Bucket): { bucket: R2Bucket; gets: () => number } {
  let gets = 0;
  const counted = {
    get: (key: string, options?: R2GetOptions) => {
      gets += 1;
      return bucket.get(key, options);
    },
  } as unknown as R2Bucket;
  return { bucket: counted, gets: () => gets };
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/ready') return new Response('ok');
    if (url.pathname !== '/resource-reads') return new Response('not found', { status: 404 });
    const book = await env.DB.prepare('SELECT path, file_size, etag, readium_index FROM books WHERE id = ?')
      .bind(url.searchParams.get('book'))
      .first<{ path: string; file_size: number; etag: string; readium_index: string | null }>();
    if (!book?.readium_index) return new Response('no such EPUB', { status: 404 });
    const index = JSON.parse(book.readium_index) as ReadiumIndex;
    const results = [];
    for (const resource of index.resources) {
      const { bucket, gets } = counting(env.LIBRARY);
      const bytes = await openEpubResource(
        bucket,
        { path: book.path, fileSize: book.file_size, etag: book.etag },
        resource,
      );
      const read = bytes.kind === 'stream' ? await drain(bytes.stream) : -1;
      results.push({ path: resource.path, size: resource.size, gets: gets(), bytes: read });
    }
    return Response.json(results);
  },
};
