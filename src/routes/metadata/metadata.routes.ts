import {
  BookLocksUpdateSchema,
  BookMetadataLocksSchema,
  BookMetadataPatchSchema,
  BookMetadataSchema,
  BulkBookLocksUpdateSchema,
  BulkBookMetadataPatchSchema,
  BulkMetadataUpdateSchema,
  BulkSeriesLocksUpdateSchema,
  BulkSeriesMetadataPatchSchema,
  SeriesLocksUpdateSchema,
  SeriesMetadataLocksSchema,
  SeriesMetadataPatchSchema,
  SeriesMetadataSchema,
} from '../../schemas/metadata.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, json } from '../contract';

const metadata = contractsFor('Metadata');
const LOCKS =
  'Each field set is locked: no rescan or changed file overwrites it until the lock is turned off (PUT …/metadata/locks).';
const UNLOCK = "Turning a lock off brings back the file's value (books) or the value derived from the books (series).";
const RATING =
  'The age rating decides who sees the series: changing it (or its lock) needs UsersWrite too (403, nothing written); null or unlocking rates the series from its books.';
const bulk = (what: string) => `Visible ${what} only; others are skipped and not counted.`;

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  bulkPatchSeries: metadata.patch('/series/bulk/metadata', 'SeriesWrite', { summary: 'Set metadata fields of several series (SeriesWrite)', description: `${LOCKS} ${bulk('series')}`, body: BulkSeriesMetadataPatchSchema, 200: json(BulkMetadataUpdateSchema, 'How many series changed'), errors: [400] }),
  bulkSeriesLocks: metadata.put('/series/bulk/metadata/locks', 'SeriesWrite', { summary: 'Set metadata locks of several series (SeriesWrite)', description: `${UNLOCK} ${bulk('series')}`, body: BulkSeriesLocksUpdateSchema, 200: json(BulkMetadataUpdateSchema, 'How many series changed'), errors: [400] }),
  getSeriesMetadata: metadata.get('/series/{id}/metadata', 'SeriesRead', { summary: 'Editable metadata of a series, with its locks (SeriesRead)', params: IdParamSchema, 200: json(SeriesMetadataSchema, 'The metadata'), errors: [400, 404] }),
  patchSeriesMetadata: metadata.patch('/series/{id}/metadata', 'SeriesWrite', { summary: 'Set metadata fields of a series (SeriesWrite)', description: `${LOCKS} ${RATING}`, params: IdParamSchema, body: SeriesMetadataPatchSchema, 200: json(SeriesMetadataSchema, 'The metadata after the edit'), errors: [400, 404] }),
  getSeriesLocks: metadata.get('/series/{id}/metadata/locks', 'SeriesRead', { summary: 'Metadata locks of a series (SeriesRead)', params: IdParamSchema, 200: json(SeriesMetadataLocksSchema, 'The locks'), errors: [400, 404] }),
  putSeriesLocks: metadata.put('/series/{id}/metadata/locks', 'SeriesWrite', { summary: 'Set metadata locks of a series (SeriesWrite)', description: `${UNLOCK} ${RATING}`, params: IdParamSchema, body: SeriesLocksUpdateSchema, 200: json(SeriesMetadataLocksSchema, 'The locks after the change'), errors: [400, 404] }),
  bulkPatchBooks: metadata.patch('/books/bulk/metadata', 'BooksWrite', { summary: 'Set metadata fields of several books (BooksWrite)', description: `${LOCKS} ${bulk('books')}`, body: BulkBookMetadataPatchSchema, 200: json(BulkMetadataUpdateSchema, 'How many books changed'), errors: [400] }),
  bulkBookLocks: metadata.put('/books/bulk/metadata/locks', 'BooksWrite', { summary: 'Set metadata locks of several books (BooksWrite)', description: `${UNLOCK} ${bulk('books')}`, body: BulkBookLocksUpdateSchema, 200: json(BulkMetadataUpdateSchema, 'How many books changed'), errors: [400] }),
  getBookMetadata: metadata.get('/books/{id}/metadata', 'BooksRead', { summary: 'Editable metadata of a live book, with its locks (BooksRead)', params: IdParamSchema, 200: json(BookMetadataSchema, 'The metadata'), errors: [400, 404] }),
  patchBookMetadata: metadata.patch('/books/{id}/metadata', 'BooksWrite', { summary: 'Set metadata fields of a book (BooksWrite)', description: LOCKS, params: IdParamSchema, body: BookMetadataPatchSchema, 200: json(BookMetadataSchema, 'The metadata after the edit'), errors: [400, 404] }),
  getBookLocks: metadata.get('/books/{id}/metadata/locks', 'BooksRead', { summary: 'Metadata locks of a book (BooksRead)', params: IdParamSchema, 200: json(BookMetadataLocksSchema, 'The locks'), errors: [400, 404] }),
  putBookLocks: metadata.put('/books/{id}/metadata/locks', 'BooksWrite', { summary: 'Set metadata locks of a book (BooksWrite)', description: UNLOCK, params: IdParamSchema, body: BookLocksUpdateSchema, 200: json(BookMetadataLocksSchema, 'The locks after the change'), errors: [400, 404] }),
};
