import { BinarySchema } from '../../schemas/page.schema';
import {
  BookCoverListSchema,
  BookCoverSchema,
  CoverParamsSchema,
  CoverUploadFormSchema,
  SeriesCoverListSchema,
  SeriesCoverSchema,
} from '../../schemas/cover.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, empty, json } from '../contract';

const UPLOAD =
  'multipart/form-data, the image in a part named `file`, `cover` or `image`: JPEG, PNG or WebP (told from the ' +
  'bytes), at most 20 MB and 50 million pixels; anything else is a 400 with the reason. The new cover is selected ' +
  'and `cover_updated` is published.';
const image = { description: 'The cover’s thumbnail', content: { 'image/*': { schema: BinarySchema } } };
const upload = { required: true, content: { 'multipart/form-data': { schema: CoverUploadFormSchema } } };

const coverRoutes = <const K extends 'series' | 'books'>(kind: K) => {
  const tag = kind === 'series' ? 'Series' : 'Books';
  const write = kind === 'series' ? 'SeriesWrite' : 'BooksWrite';
  const read = kind === 'series' ? 'SeriesRead' : 'BooksRead';
  const one = kind === 'series' ? SeriesCoverSchema : BookCoverSchema;
  const list = kind === 'series' ? SeriesCoverListSchema : BookCoverListSchema;
  const what = kind === 'series' ? 'series' : 'book';
  const routes = contractsFor(tag);
  // biome-ignore format: a table of endpoints, one per line
  return {
    upload: routes.post(`/${kind}/{id}/cover`, write, { summary: `Upload a cover for a ${what} (${write})`, description: UPLOAD, params: IdParamSchema, body: upload, 200: json(one, 'The stored cover'), errors: [400, 404, 413] }),
    list: routes.get(`/${kind}/{id}/covers`, read, { summary: `Uploaded covers of a ${what} (${read})`, params: IdParamSchema, 200: json(list, 'The covers, oldest first'), errors: [400, 404] }),
    reset: routes.delete(`/${kind}/{id}/covers/selected`, write, { summary: `Show the generated cover of a ${what} again (${write})`, description: kind === 'series' ? 'The first book’s cover; uploads are kept.' : 'The book’s cover page; uploads are kept.', params: IdParamSchema, 204: empty('Reset'), errors: [400, 404] }),
    remove: routes.delete(`/${kind}/{id}/covers/{coverId}`, write, { summary: `Delete an uploaded cover of a ${what} (${write})`, params: CoverParamsSchema, 204: empty('Deleted'), errors: [400, 404] }),
    image: routes.get(`/${kind}/{id}/covers/{coverId}/image`, read, { summary: `The thumbnail of an uploaded cover of a ${what} (${read})`, params: CoverParamsSchema, 200: image, errors: [400, 404] }),
    select: routes.put(`/${kind}/{id}/covers/{coverId}/select`, write, { summary: `Show this uploaded cover for the ${what} (${write})`, params: CoverParamsSchema, 200: json(one, 'The selected cover'), errors: [400, 404] }),
  };
};

export const contracts = { series: coverRoutes('series'), books: coverRoutes('books') };
