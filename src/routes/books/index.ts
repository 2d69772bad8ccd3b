import { createRouter } from '../../http/router';
import { act, paged, scopedList } from '../handlers';
import { requestViewer } from '../../http/progress-actor';
import { contracts as routes } from './books.routes';

// Fixed paths are registered before /books/{id} so that they never reach its UUID check.
export const booksRouter = createRouter()
  .openapi(
    ...paged(routes.listBooks, ({ services, viewer, query, scope }, page) =>
      services.bookQuery.list(viewer, { ...scope, seriesId: query.series_id, ...query }, page),
    ),
  )
  .openapi(
    ...paged(routes.filterBooks, ({ services, viewer, query, body }, page) =>
      services.bookQuery.list(viewer, query, page, body),
    ),
  )
  .openapi(...scopedList(routes.booksInProgress, 'bookQuery', 'inProgress'))
  .openapi(...scopedList(routes.booksOnDeck, 'bookQuery', 'onDeck'))
  .openapi(...scopedList(routes.booksRecentlyAdded, 'bookQuery', 'recentlyAdded'))
  .openapi(...scopedList(routes.booksRecentlyRead, 'bookQuery', 'recentlyRead'))
  .openapi(routes.getBook, async (c) =>
    c.json(await c.get('services').bookQuery.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(
    ...act(routes.deleteBookFile, ({ services, viewer, param, checked }) =>
      services.fileDeletion.deleteBook(viewer, param.id, checked),
    ),
  );
