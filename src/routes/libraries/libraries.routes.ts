import {
  CreateLibraryBodySchema,
  LibraryListSchema,
  LibrarySchema,
  UpdateLibraryBodySchema,
} from '../../schemas/library.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, empty, json } from '../contract';

const libraries = contractsFor('Libraries');
const CREATE =
  '`path` is a key prefix in the library bucket. It may not equal, contain or sit inside another ' +
  "library's prefix (409), and names are unique ignoring case (409).";
const DELETE =
  'Removes the library and its series, books, pages and reading progress from the catalog. The files in ' +
  'the bucket are never touched.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listLibraries: libraries.get('/libraries', 'LibrariesRead', { summary: 'List libraries (LibrariesRead)', description: 'Every library, ordered by name. Not paginated: API.md marks only series and book lists as paginated.', 200: json(LibraryListSchema, 'All libraries') }),
  createLibrary: libraries.post('/libraries', 'LibrariesWrite', { summary: 'Create a library (LibrariesWrite)', description: CREATE, body: CreateLibraryBodySchema, 201: json(LibrarySchema, 'The new library'), errors: [400, 409] }),
  getLibrary: libraries.get('/libraries/{id}', 'LibrariesRead', { summary: 'A library with its series and book counts (LibrariesRead)', params: IdParamSchema, 200: json(LibrarySchema, 'The library'), errors: [400, 404] }),
  updateLibrary: libraries.put('/libraries/{id}', 'LibrariesWrite', { summary: 'Change a library (LibrariesWrite); omitted fields stay as they are', params: IdParamSchema, body: UpdateLibraryBodySchema, 200: json(LibrarySchema, 'The updated library'), errors: [400, 404, 409] }),
  deleteLibrary: libraries.delete('/libraries/{id}', 'LibrariesDelete', { summary: 'Delete a library (LibrariesDelete)', description: DELETE, params: IdParamSchema, 204: empty('Deleted'), errors: [400, 404] }),
};
