/**
 * Komga's catalog reads: libraries, series, books and the filter lists Mihon loads
 * (docs/notes/komga-clients.md §4.5 rows 3–8, 13, 14). Thin handlers over KomgaService.
 */
import { z } from 'zod';
import { allOf, bookQueryCondition, type Condition, fromKomgaSearch, seriesQueryCondition } from './komga-conditions';
import { requestViewer } from '../http/progress-actor';
import { jsonBody, type KomgaApp, komgaOf, need, pagingOf, queryValues } from './komga-http';
import { springPage } from './komga-paging';
import { toKomgaLibrary } from './komga.mappers';

/** Komga search bodies (`POST /series/list`, `POST /books/list`). */
const SearchBodySchema = z.object({
  condition: z.unknown().optional(),
  fullTextSearch: z.string().max(500).optional(),
});

/** `deleted=true` asks for deleted entities only; Longbox's lists hold live ones. */
const wantsDeletedOnly = (values: string[]) => values[0]?.toLowerCase() === 'true';

export function registerCatalogRoutes(app: KomgaApp) {
  // ---- libraries ----
  app.get('/api/v1/libraries', need('LibrariesRead'), async (c) => {
    const admin = c.get('principal').permissions.has('SystemAdmin');
    const libraries = await c.get('services').libraries.list(requestViewer(c));
    return c.json(libraries.map((l) => toKomgaLibrary(l, admin)));
  });
  app.get('/api/v1/libraries/:id', need('LibrariesRead'), async (c) => {
    const admin = c.get('principal').permissions.has('SystemAdmin');
    return c.json(toKomgaLibrary(await c.get('services').libraries.get(requestViewer(c), c.req.param('id')), admin));
  });

  // ---- series ----
  app.get('/api/v1/series', need('SeriesRead'), async (c) => {
    const query = queryValues(c);
    const paging = pagingOf(c);
    if (wantsDeletedOnly(query('deleted'))) return c.json(springPage([], 0, paging));
    const condition = seriesQueryCondition(query);
    const search = query('search')[0];
    return c.json(await komgaOf(c).listSeries(requestViewer(c), paging, { condition, search }));
  });
  app.post('/api/v1/series/list', need('SeriesRead'), async (c) => {
    const body = await jsonBody(c, SearchBodySchema, true);
    const condition = fromKomgaSearch(body.condition, 'series');
    const paging = pagingOf(c);
    return c.json(await komgaOf(c).listSeries(requestViewer(c), paging, { condition, search: body.fullTextSearch }));
  });
  for (const [path, sort] of [
    ['/api/v1/series/new', 'date_added,desc'],
    ['/api/v1/series/updated', 'date_updated,desc'],
  ] as const) {
    app.get(path, need('SeriesRead'), async (c) => {
      const query = queryValues(c);
      const paging = pagingOf(c);
      if (wantsDeletedOnly(query('deleted'))) return c.json(springPage([], 0, paging));
      const condition = seriesQueryCondition(query);
      return c.json(await komgaOf(c).listSeries(requestViewer(c), paging, { condition, sort }));
    });
  }
  app.get('/api/v1/series/:id', need('SeriesRead'), async (c) =>
    c.json(await komgaOf(c).getSeries(requestViewer(c), c.req.param('id'))),
  );
  app.get('/api/v1/series/:id/books', need('BooksRead'), async (c) => {
    const query = queryValues(c);
    const paging = pagingOf(c);
    if (wantsDeletedOnly(query('deleted'))) return c.json(springPage([], 0, paging));
    const condition = bookQueryCondition(query);
    return c.json(await komgaOf(c).seriesBooks(requestViewer(c), c.req.param('id'), paging, condition));
  });

  // ---- books ----
  app.get('/api/v1/books', need('BooksRead'), async (c) => {
    const query = queryValues(c);
    const paging = pagingOf(c);
    if (wantsDeletedOnly(query('deleted'))) return c.json(springPage([], 0, paging));
    const condition = bookQueryCondition(query);
    return c.json(await komgaOf(c).listBooks(requestViewer(c), paging, { condition, search: query('search')[0] }));
  });
  app.post('/api/v1/books/list', need('BooksRead'), async (c) => {
    const body = await jsonBody(c, SearchBodySchema, true);
    const paging = pagingOf(c);
    const komga = komgaOf(c);
    // Komelia's "keep reading" and "recently read" rows: the user's progress, latest first.
    const byProgress = progressRow(body.condition, paging.sort[0]?.property);
    if (byProgress !== null && !body.fullTextSearch) {
      return c.json(await komga.booksByProgress(requestViewer(c), byProgress, paging));
    }
    const condition: Condition | undefined = allOf([fromKomgaSearch(body.condition, 'book')]);
    return c.json(await komga.listBooks(requestViewer(c), paging, { condition, search: body.fullTextSearch }));
  });
  app.get('/api/v1/books/ondeck', need('BooksRead'), async (c) => {
    const libraryId = queryValues(c)('library_id')[0];
    return c.json(await komgaOf(c).onDeck(requestViewer(c), libraryId, pagingOf(c)));
  });
  app.get('/api/v1/books/:id', need('BooksRead'), async (c) =>
    c.json(await komgaOf(c).getBook(requestViewer(c), c.req.param('id'))),
  );
  app.get('/api/v1/books/:id/next', need('BooksRead'), async (c) =>
    c.json(await komgaOf(c).sibling(requestViewer(c), c.req.param('id'), 1)),
  );
  app.get('/api/v1/books/:id/previous', need('BooksRead'), async (c) =>
    c.json(await komgaOf(c).sibling(requestViewer(c), c.req.param('id'), -1)),
  );

  // ---- filter values (Mihon's filter sheet) ----
  app.get('/api/v1/genres', need('SeriesRead'), async (c) => c.json(await komgaOf(c).terms(requestViewer(c), 'genre')));
  for (const path of ['/api/v1/tags', '/api/v1/tags/series', '/api/v1/tags/book']) {
    app.get(path, need('SeriesRead'), async (c) => c.json(await komgaOf(c).terms(requestViewer(c), 'tag')));
  }
  app.get('/api/v1/publishers', need('SeriesRead'), async (c) => c.json(await komgaOf(c).publishers(requestViewer(c))));
  app.get('/api/v1/authors', need('BooksRead'), async (c) => c.json(await komgaOf(c).authors(requestViewer(c))));
  app.get('/api/v2/authors', need('BooksRead'), async (c) => {
    const all = await komgaOf(c).authors(requestViewer(c));
    const paging = pagingOf(c);
    const search = queryValues(c)('search')[0]?.toLowerCase();
    const role = queryValues(c)('role')[0];
    const matching = all.filter(
      (a) => (!search || a.name.toLowerCase().includes(search)) && (!role || a.role === role),
    );
    const start = paging.unpaged ? 0 : paging.request.offset;
    const end = paging.unpaged ? matching.length : start + paging.size;
    return c.json(springPage(matching.slice(start, end), matching.length, paging));
  });
  app.get('/api/v1/languages', need('SeriesRead'), async (c) => c.json([]));
}

/**
 * `{"allOf":[{"readStatus":{"operator":"is","value":"IN_PROGRESS"}}]}` sorted by `readProgress.readDate`
 * (or unsorted) is a list of the user's progress: true for READ, false for IN_PROGRESS, else null.
 */
function progressRow(condition: unknown, sortProperty: string | undefined): boolean | null {
  if (sortProperty !== undefined && sortProperty !== 'readProgress.readDate') return null;
  let node = condition as Record<string, unknown> | undefined;
  while (node && Array.isArray(node.allOf) && node.allOf.length === 1) node = node.allOf[0] as Record<string, unknown>;
  const leaf = node?.readStatus as { operator?: unknown; value?: unknown } | undefined;
  if (leaf?.operator !== 'is' || Object.keys(node ?? {}).length !== 1) return null;
  if (leaf.value === 'IN_PROGRESS') return false;
  if (leaf.value === 'READ') return true;
  return null;
}
