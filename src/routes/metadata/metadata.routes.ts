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
import type { z } from '@hono/zod-openapi';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, json } from '../contract';

const metadata = contractsFor('Metadata');
const LOCKS =
  'Each field set is locked: no rescan or changed file overwrites it until the lock is turned off (PUT …/metadata/locks).';
const UNLOCK = "Turning a lock off brings back the file's value (books) or the value derived from the books (series).";
const RATING =
  'The age rating decides who sees the series: changing it (or its lock) needs UsersWrite too (403, nothing written); null or unlocking rates the series from its books.';
const bulk = (what: string) => `Visible ${what} only; others are skipped and not counted.`;

/** The schemas of one resource's metadata endpoints. */
interface EditingSchemas<M, P, L, LU, BP, BL> {
  metadata: M;
  patch: P;
  locks: L;
  locksUpdate: LU;
  bulkPatch: BP;
  bulkLocks: BL;
}
type Z = z.ZodType;

/**
 * Series and books are edited alike: values, locks, and the bulk forms of both. One type parameter a schema:
 * a schema reached through an indexed type would reach the handlers as a bare ZodType, untyped.
 */
const editing = <
  const K extends 'series' | 'books',
  M extends Z,
  P extends Z,
  L extends Z,
  LU extends Z,
  BP extends Z,
  BL extends Z,
>(
  kind: K,
  s: EditingSchemas<M, P, L, LU, BP, BL>,
  /** Said of the single-item edits beside the lock rule (series: the age rating). */
  note = '',
) => {
  const [one, read, write] =
    kind === 'series'
      ? (['series', 'SeriesRead', 'SeriesWrite'] as const)
      : (['book', 'BooksRead', 'BooksWrite'] as const);
  const changed = json(BulkMetadataUpdateSchema, `How many ${kind} changed`);
  // biome-ignore format: a table of endpoints, one per line
  return {
    bulkPatch: metadata.patch(`/${kind}/bulk/metadata`, write, { summary: `Set metadata fields of several ${kind} (${write})`, description: `${LOCKS} ${bulk(kind)}`, body: s.bulkPatch, 200: changed, errors: [400] }),
    bulkLocks: metadata.put(`/${kind}/bulk/metadata/locks`, write, { summary: `Set metadata locks of several ${kind} (${write})`, description: `${UNLOCK} ${bulk(kind)}`, body: s.bulkLocks, 200: changed, errors: [400] }),
    get: metadata.get(`/${kind}/{id}/metadata`, read, { summary: `Editable metadata of a ${one}, with its locks (${read})`, params: IdParamSchema, 200: json(s.metadata, 'The metadata'), errors: [400, 404] }),
    patch: metadata.patch(`/${kind}/{id}/metadata`, write, { summary: `Set metadata fields of a ${one} (${write})`, description: `${LOCKS}${note}`, params: IdParamSchema, body: s.patch, 200: json(s.metadata, 'The metadata after the edit'), errors: [400, 404] }),
    getLocks: metadata.get(`/${kind}/{id}/metadata/locks`, read, { summary: `Metadata locks of a ${one} (${read})`, params: IdParamSchema, 200: json(s.locks, 'The locks'), errors: [400, 404] }),
    putLocks: metadata.put(`/${kind}/{id}/metadata/locks`, write, { summary: `Set metadata locks of a ${one} (${write})`, description: `${UNLOCK}${note}`, params: IdParamSchema, body: s.locksUpdate, 200: json(s.locks, 'The locks after the change'), errors: [400, 404] }),
  };
};

export const contracts = {
  series: editing(
    'series',
    {
      metadata: SeriesMetadataSchema,
      patch: SeriesMetadataPatchSchema,
      locks: SeriesMetadataLocksSchema,
      locksUpdate: SeriesLocksUpdateSchema,
      bulkPatch: BulkSeriesMetadataPatchSchema,
      bulkLocks: BulkSeriesLocksUpdateSchema,
    },
    ` ${RATING}`,
  ),
  books: editing('books', {
    metadata: BookMetadataSchema,
    patch: BookMetadataPatchSchema,
    locks: BookMetadataLocksSchema,
    locksUpdate: BookLocksUpdateSchema,
    bulkPatch: BulkBookMetadataPatchSchema,
    bulkLocks: BulkBookLocksUpdateSchema,
  }),
};
