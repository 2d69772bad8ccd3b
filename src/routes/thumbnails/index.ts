/**
 * Book, series and library covers: thin handlers over the thumbnail service. A book's or series' cover asked
 * for with its `?v=` version is immutable; a library's follows its first series, so it is revalidated.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { createRouter } from '../../http/router';
import type { ThumbnailService } from '../../services/thumbnail.service';
import { mediaRequestOf, sendMedia } from '../../http/send-media';
import { coverCaching } from '../../pages/media-response';
import { requestViewer } from '../../http/progress-actor';
import { contracts as routes } from './thumbnails.routes';

type Cover = 'forBook' | 'forSeries' | 'forLibrary';

/** The handler of a cover route: the cover of `{id}` as the thumbnail service finds it for the caller. */
const cover = (kind: Cover) => async (c: Context<AppEnv>) => {
  const thumbnails: ThumbnailService = c.get('services').thumbnails;
  const result = await thumbnails[kind](requestViewer(c), c.req.param('id') ?? '', mediaRequestOf(c));
  const caching = kind === 'forLibrary' ? 'derived' : c.req.query('v') ? 'versioned' : 'plain';
  return sendMedia(c, coverCaching(result, caching));
};

export const thumbnailsRouter = createRouter()
  .openapi(routes.bookThumbnail, cover('forBook'))
  .openapi(routes.seriesThumbnail, cover('forSeries'))
  .openapi(routes.libraryThumbnail, cover('forLibrary'));
