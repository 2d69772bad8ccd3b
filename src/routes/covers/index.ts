import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { parseMultipart } from '../../http/multipart';
import { requestViewer } from '../../http/progress-actor';
import { sendMedia } from '../../http/send-media';
import { badRequest } from '../../lib/errors';
import type { CoverOwner, CoverRow } from '../../repositories/uploaded-covers.repository';
import { createRouter } from '../../http/router';
import { contracts } from './covers.routes';

/** The image part of a cover upload: Codex-rs accepts `cover`, `file` or `image`. */
async function uploadedImage(c: Context<AppEnv>): Promise<Uint8Array> {
  const parts = parseMultipart(c.req.header('Content-Type'), new Uint8Array(await c.req.arrayBuffer()));
  const part = parts.find((p) => p.name === 'cover' || p.name === 'file' || p.name === 'image');
  if (!part) throw badRequest('The multipart part file (or cover, image) is missing');
  return part.bytes;
}

const toCover = (owner: CoverOwner, row: CoverRow) => ({
  id: row.id,
  ...(owner.kind === 'series' ? { seriesId: owner.id } : { bookId: owner.id }),
  isSelected: row.selected,
  source: 'custom' as const,
  mediaType: row.mediaType,
  fileSize: row.fileSize,
  width: row.width,
  height: row.height,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function coverRouter(kind: CoverOwner['kind'], routes: (typeof contracts)['series'] | (typeof contracts)['books']) {
  const owner = (id: string): CoverOwner => ({ kind, id });
  // covers/selected is registered before covers/{coverId}, whose UUID check would refuse "selected".
  return createRouter()
    .openapi(routes.reset, async (c) => {
      await c.get('services').covers.reset(requestViewer(c), owner(c.req.valid('param').id));
      return c.body(null, 204);
    })
    .openapi(routes.upload, async (c) => {
      const { id } = c.req.valid('param');
      const row = await c.get('services').covers.upload(requestViewer(c), owner(id), await uploadedImage(c), true);
      return c.json(toCover(owner(id), row) as never, 200);
    })
    .openapi(routes.list, async (c) => {
      const { id } = c.req.valid('param');
      const rows = await c.get('services').covers.list(requestViewer(c), owner(id));
      return c.json({ covers: rows.map((r) => toCover(owner(id), r)) } as never, 200);
    })
    .openapi(routes.remove, async (c) => {
      const { id, coverId } = c.req.valid('param');
      await c.get('services').covers.remove(requestViewer(c), owner(id), coverId);
      return c.body(null, 204);
    })
    .openapi(routes.image, async (c) => {
      const { id, coverId } = c.req.valid('param');
      return sendMedia(c, await c.get('services').covers.image(requestViewer(c), owner(id), coverId));
    })
    .openapi(routes.select, async (c) => {
      const { id, coverId } = c.req.valid('param');
      const covers = c.get('services').covers;
      await covers.select(requestViewer(c), owner(id), coverId);
      const rows = await covers.list(requestViewer(c), owner(id));
      return c.json(toCover(owner(id), rows.find((r) => r.id === coverId) as CoverRow) as never, 200);
    });
}

export const seriesCoversRouter = coverRouter('series', contracts.series);
export const bookCoversRouter = coverRouter('book', contracts.books);
