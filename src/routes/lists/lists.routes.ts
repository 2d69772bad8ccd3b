/**
 * Contracts of collections, read lists and want-to-read (docs/DECISIONS.md §Organise and share; Codex-rs's
 * paths and shapes, docs/clients.md). Readers read collections and read lists; maintainers write and delete
 * them; want-to-read is each user's own reading state, so it needs the progress permissions.
 */
import { COLLECTIONS_READ, PROGRESS_READ, PROGRESS_WRITE, READ_LISTS_READ } from '../../auth/permissions';
import { BookPageSchema, BookSchema } from '../../schemas/book.schema';
import {
  AddWantToReadBodySchema,
  BookIdsBodySchema,
  BulkWantToReadBodySchema,
  BulkWantToReadResultSchema,
  CblImportQuerySchema,
  CblImportReportSchema,
  CollectionListQuerySchema,
  CollectionMemberParamsSchema,
  CollectionPageSchema,
  CollectionSchema,
  CreateCollectionBodySchema,
  CreateReadListBodySchema,
  ReadListListQuerySchema,
  ReadListMemberParamsSchema,
  ReadListPageSchema,
  ReadListSchema,
  SeriesIdsBodySchema,
  UpdateCollectionBodySchema,
  UpdateReadListBodySchema,
  WantToReadEntrySchema,
  WantToReadOrderBodySchema,
  WantToReadPageSchema,
} from '../../schemas/lists.schema';
import { BinarySchema } from '../../schemas/page.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { SeriesPageSchema } from '../../schemas/series.schema';
import { GetPageQuerySchema } from '../../lib/pagination';
import { contractsFor, empty, json } from '../contract';
import { NOT_MODIFIED } from '../pages/pages.routes';

const collections = contractsFor('Collections');
const readLists = contractsFor('Read lists');
const wantToRead = contractsFor('Want to read');

const MEMBERS =
  'Only the members the caller may see are listed and counted; a list whose members are all hidden from the ' +
  'caller answers 404. Naming an unknown or hidden id, or one id twice, is a 400 naming them, and nothing changes.';
const REPLACE =
  'The members the caller sees become the ids sent, in that order; members hidden from the caller keep their ' +
  'places (docs/DECISIONS.md §Organise and share).';
const COVER = {
  description: 'The cover of the first member the caller may see (image/jpeg, or a placeholder SVG)',
  content: { 'image/*': { schema: BinarySchema } },
};
const CBL =
  'A ComicRack reading list (`.cbl` XML) as the raw body or the `file` field of a multipart form. Entries are ' +
  'matched to books by series (name, or `Series (Volume)`), number (leading zeros ignored), volume and year; ' +
  'the read list of the file’s Name is created, or its books replaced when it exists. The report lists every ' +
  'entry, matched or not. A file that is not XML, not a reading list or has no entries → 400 with the reason.';
const CBL_BODY = {
  required: true,
  content: { 'application/xml': { schema: BinarySchema }, 'text/xml': { schema: BinarySchema } },
};
const WTR_ADD = 'Queues a series or a book at the end: 201 when added, 200 when it was already queued.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listCollections: collections.get('/collections', COLLECTIONS_READ, { summary: 'Collections the caller may see, by name (CollectionsRead or SeriesRead)', query: CollectionListQuerySchema, 200: json(CollectionPageSchema, 'A page of collections'), errors: [400] }),
  createCollection: collections.post('/collections', 'CollectionsWrite', { summary: 'Create a collection or a smart collection (CollectionsWrite)', description: `Names are unique ignoring case (409). A smart collection sends \`condition\` (the grammar of POST /series/list; a bad one → 400 naming its path) and no seriesIds. ${MEMBERS}`, body: CreateCollectionBodySchema, 201: json(CollectionSchema, 'The new collection'), errors: [400, 409] }),
  getCollection: collections.get('/collections/{id}', COLLECTIONS_READ, { summary: 'A collection (CollectionsRead or SeriesRead)', params: IdParamSchema, 200: json(CollectionSchema, 'The collection'), errors: [400, 404] }),
  updateCollection: collections.patch('/collections/{id}', 'CollectionsWrite', { summary: 'Rename a collection, change its order, rule or pin (CollectionsWrite)', params: IdParamSchema, body: UpdateCollectionBodySchema, 200: json(CollectionSchema, 'The collection'), errors: [400, 404, 409] }),
  deleteCollection: collections.delete('/collections/{id}', 'CollectionsDelete', { summary: 'Delete a collection; its series stay (CollectionsDelete)', params: IdParamSchema, 204: empty('Deleted'), errors: [400, 404] }),
  listCollectionSeries: collections.get('/collections/{id}/series', COLLECTIONS_READ, { summary: 'The series of a collection, in its order (or by name), or what a smart collection finds (CollectionsRead or SeriesRead)', params: IdParamSchema, query: GetPageQuerySchema, 200: json(SeriesPageSchema, 'A page of series'), errors: [400, 404, 409] }),
  listCollectionBooks: collections.get('/collections/{id}/books', COLLECTIONS_READ, { summary: 'The books a smart collection of books finds (CollectionsRead or SeriesRead)', params: IdParamSchema, query: GetPageQuerySchema, 200: json(BookPageSchema, 'A page of books'), errors: [400, 404, 409] }),
  addCollectionSeries: collections.post('/collections/{id}/series', 'CollectionsWrite', { summary: 'Add series after the last one (CollectionsWrite)', description: `Series already in the collection keep their place. ${MEMBERS}`, params: IdParamSchema, body: SeriesIdsBodySchema, 200: json(CollectionSchema, 'The collection'), errors: [400, 404, 409] }),
  replaceCollectionSeries: collections.put('/collections/{id}/series', 'CollectionsWrite', { summary: 'Set the series of a collection and their order (CollectionsWrite)', description: REPLACE, params: IdParamSchema, body: SeriesIdsBodySchema, 204: empty('Replaced'), errors: [400, 404, 409] }),
  removeCollectionSeries: collections.delete('/collections/{id}/series/{seriesId}', 'CollectionsWrite', { summary: 'Remove a series from a collection (CollectionsWrite)', params: CollectionMemberParamsSchema, 204: empty('Removed'), errors: [400, 404, 409] }),
  collectionThumbnail: collections.get('/collections/{id}/thumbnail', COLLECTIONS_READ, { summary: 'A collection’s cover: its first visible series’ (CollectionsRead or SeriesRead)', params: IdParamSchema, 200: COVER, 304: NOT_MODIFIED, errors: [400, 404] }),
  seriesCollections: collections.get('/series/{id}/collections', COLLECTIONS_READ, { summary: 'The collections holding a series (CollectionsRead or SeriesRead)', params: IdParamSchema, query: GetPageQuerySchema, 200: json(CollectionPageSchema, 'A page of collections'), errors: [400, 404] }),

  listReadLists: readLists.get('/readlists', READ_LISTS_READ, { summary: 'Read lists the caller may see, by name (ReadListsRead or BooksRead)', query: ReadListListQuerySchema, 200: json(ReadListPageSchema, 'A page of read lists'), errors: [400] }),
  createReadList: readLists.post('/readlists', 'ReadListsWrite', { summary: 'Create a read list (ReadListsWrite)', description: `Names are unique ignoring case (409). ${MEMBERS}`, body: CreateReadListBodySchema, 201: json(ReadListSchema, 'The new read list'), errors: [400, 409] }),
  importCbl: readLists.post('/readlists/import/cbl', 'ReadListsWrite', { summary: 'Import a ComicRack reading list (ReadListsWrite)', description: CBL, query: CblImportQuerySchema, body: CBL_BODY, 200: json(CblImportReportSchema, 'What matched, what did not, and the list written'), errors: [400, 404, 413] }),
  getReadList: readLists.get('/readlists/{id}', READ_LISTS_READ, { summary: 'A read list (ReadListsRead or BooksRead)', params: IdParamSchema, 200: json(ReadListSchema, 'The read list'), errors: [400, 404] }),
  updateReadList: readLists.patch('/readlists/{id}', 'ReadListsWrite', { summary: 'Rename a read list, edit its summary or order (ReadListsWrite)', params: IdParamSchema, body: UpdateReadListBodySchema, 200: json(ReadListSchema, 'The read list'), errors: [400, 404, 409] }),
  deleteReadList: readLists.delete('/readlists/{id}', 'ReadListsDelete', { summary: 'Delete a read list; its books stay (ReadListsDelete)', params: IdParamSchema, 204: empty('Deleted'), errors: [400, 404] }),
  listReadListBooks: readLists.get('/readlists/{id}/books', READ_LISTS_READ, { summary: 'The books of a read list, in its order (ReadListsRead or BooksRead)', params: IdParamSchema, query: GetPageQuerySchema, 200: json(BookPageSchema, 'A page of books'), errors: [400, 404] }),
  addReadListBooks: readLists.post('/readlists/{id}/books', 'ReadListsWrite', { summary: 'Add books after the last one (ReadListsWrite)', description: `Books already in the list keep their place. ${MEMBERS}`, params: IdParamSchema, body: BookIdsBodySchema, 200: json(ReadListSchema, 'The read list'), errors: [400, 404] }),
  replaceReadListBooks: readLists.put('/readlists/{id}/books', 'ReadListsWrite', { summary: 'Set the books of a read list and their order (ReadListsWrite)', description: REPLACE, params: IdParamSchema, body: BookIdsBodySchema, 204: empty('Replaced'), errors: [400, 404] }),
  removeReadListBook: readLists.delete('/readlists/{id}/books/{bookId}', 'ReadListsWrite', { summary: 'Remove a book from a read list (ReadListsWrite)', params: ReadListMemberParamsSchema, 204: empty('Removed'), errors: [400, 404] }),
  nextReadListBook: readLists.get('/readlists/{id}/books/{bookId}/next', READ_LISTS_READ, { summary: 'The book after this one in the read list (ReadListsRead or BooksRead); 404 at the end', params: ReadListMemberParamsSchema, 200: json(BookSchema, 'The next book'), errors: [400, 404] }),
  previousReadListBook: readLists.get('/readlists/{id}/books/{bookId}/previous', READ_LISTS_READ, { summary: 'The book before this one in the read list (ReadListsRead or BooksRead); 404 at the start', params: ReadListMemberParamsSchema, 200: json(BookSchema, 'The previous book'), errors: [400, 404] }),
  readListThumbnail: readLists.get('/readlists/{id}/thumbnail', READ_LISTS_READ, { summary: 'A read list’s cover: its first visible book’s (ReadListsRead or BooksRead)', params: IdParamSchema, 200: COVER, 304: NOT_MODIFIED, errors: [400, 404] }),
  bookReadLists: readLists.get('/books/{id}/readlists', READ_LISTS_READ, { summary: 'The read lists holding a book (ReadListsRead or BooksRead)', params: IdParamSchema, query: GetPageQuerySchema, 200: json(ReadListPageSchema, 'A page of read lists'), errors: [400, 404] }),

  listWantToRead: wantToRead.get('/want-to-read', PROGRESS_READ, { summary: 'The caller’s want-to-read queue, in order (ProgressRead)', query: GetPageQuerySchema, 200: json(WantToReadPageSchema, 'A page of queued series and books'), errors: [400] }),
  addWantToRead: wantToRead.post('/want-to-read', PROGRESS_WRITE, { summary: 'Queue a series or a book (ProgressWrite)', description: WTR_ADD, body: AddWantToReadBodySchema, 201: json(WantToReadEntrySchema, 'Queued'), 200: json(WantToReadEntrySchema, 'Already queued'), errors: [400] }),
  bulkWantToRead: wantToRead.post('/want-to-read/bulk', PROGRESS_WRITE, { summary: 'Queue many series and books at once (ProgressWrite)', description: 'An unknown or hidden id → 400 naming it, and nothing is queued.', body: BulkWantToReadBodySchema, 200: json(BulkWantToReadResultSchema, 'How many were added and how many were already queued'), errors: [400] }),
  orderWantToRead: wantToRead.put('/want-to-read/order', PROGRESS_WRITE, { summary: 'Reorder the queue: the ids sent first, in that order (ProgressWrite)', body: WantToReadOrderBodySchema, 204: empty('Reordered'), errors: [400] }),
  removeSeriesWantToRead: wantToRead.delete('/want-to-read/series/{id}', PROGRESS_WRITE, { summary: 'Take a series off the queue (ProgressWrite)', params: IdParamSchema, 204: empty('Removed'), errors: [400, 404] }),
  removeBookWantToRead: wantToRead.delete('/want-to-read/books/{id}', PROGRESS_WRITE, { summary: 'Take a book off the queue (ProgressWrite)', params: IdParamSchema, 204: empty('Removed'), errors: [400, 404] }),
};
