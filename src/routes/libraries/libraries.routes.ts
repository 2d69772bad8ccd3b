import {
  CreateLibraryBodySchema,
  LibraryListSchema,
  LibrarySchema,
  UpdateLibraryBodySchema,
} from '../../schemas/library.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('Libraries');

export const listLibraries = route.get('/libraries', 'LibrariesRead', {
  summary: 'List libraries (LibrariesRead)',
  description: 'Every library, ordered by name. Not paginated: API.md marks only series and book lists as paginated.',
  responses: { 200: json(LibraryListSchema, 'All libraries') },
});
export const createLibrary = route.post('/libraries', 'LibrariesWrite', {
  summary: 'Create a library (LibrariesWrite)',
  description:
    '`path` is a key prefix in the library bucket. It may not equal, contain or sit inside another ' +
    "library's prefix (409), and names are unique ignoring case (409).",
  body: CreateLibraryBodySchema,
  responses: { 201: json(LibrarySchema, 'The new library') },
  errors: [400, 409],
});
export const getLibrary = route.get('/libraries/{id}', 'LibrariesRead', {
  summary: 'A library with its series and book counts (LibrariesRead)',
  params: IdParamSchema,
  responses: { 200: json(LibrarySchema, 'The library') },
  errors: [400, 404],
});
export const updateLibrary = route.put('/libraries/{id}', 'LibrariesWrite', {
  summary: 'Change a library (LibrariesWrite); omitted fields stay as they are',
  params: IdParamSchema,
  body: UpdateLibraryBodySchema,
  responses: { 200: json(LibrarySchema, 'The updated library') },
  errors: [400, 404, 409],
});
export const deleteLibrary = route.delete('/libraries/{id}', 'LibrariesDelete', {
  summary: 'Delete a library (LibrariesDelete)',
  description:
    'Removes the library and its series, books, pages and reading progress from the catalog. The files in ' +
    'the bucket are never touched.',
  params: IdParamSchema,
  responses: { 204: empty('Deleted') },
  errors: [400, 404],
});
