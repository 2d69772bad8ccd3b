import { BinarySchema } from '../../schemas/page.schema';
import {
  ImportApiKeysBodySchema,
  ImportCountsSchema,
  ImportCoverQuerySchema,
  ImportListsBodySchema,
  ImportMetadataBodySchema,
  ImportOutcomeSchema,
  ImportOutcomesSchema,
  ImportProgressBodySchema,
  ImportUsersBodySchema,
  ImportWantToReadBodySchema,
  MatchBooksAnswerSchema,
  MatchBooksBodySchema,
} from '../../schemas/import.schema';
import { contractsFor, json } from '../contract';

const imports = contractsFor('Import');
const BATCH =
  'One batch of what the migrate command read from a Komga or Kavita database (docs/DECISIONS.md §Coming from ' +
  'Komga or Kavita). Idempotent: what a batch created is remembered under the peer’s ids, so sending it again ' +
  'changes nothing and a run cut off half-way is finished by running it again.';
const image = { required: true, content: { 'application/octet-stream': { schema: BinarySchema } } };

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  matchBooks: imports.post('/admin/import/books/match', 'SystemAdmin', { summary: 'Which Longbox book each of a peer’s files is (SystemAdmin); reads only', description: 'By the same path under the mapped library, then the KOReader partial MD5, then file size and name; never by title. A rule finding two books decides nothing. One answer per candidate, in order.', body: MatchBooksBodySchema, 200: json(MatchBooksAnswerSchema, 'The matches'), errors: [400], speculation: 'read-only' }),
  importUsers: imports.post('/admin/import/users', 'SystemAdmin', { summary: 'Import a peer’s users with their access and password hashes (SystemAdmin)', description: BATCH, body: ImportUsersBodySchema, 200: json(ImportOutcomesSchema, 'One outcome per user, in order'), errors: [400], speculation: 'checked-writes' }),
  importProgress: imports.post('/admin/import/progress', 'SystemAdmin', { summary: 'Import read progress (SystemAdmin)', description: `${BATCH} A row is written only when the user has no progress on the book as recent.`, body: ImportProgressBodySchema, 200: json(ImportCountsSchema, 'Rows written, unchanged and skipped'), errors: [400], speculation: 'checked-writes' }),
  importWantToRead: imports.post('/admin/import/want-to-read', 'SystemAdmin', { summary: 'Import want-to-read queues (SystemAdmin)', description: BATCH, body: ImportWantToReadBodySchema, 200: json(ImportCountsSchema, 'Items added and already queued'), errors: [400] }),
  importLists: imports.post('/admin/import/lists', 'SystemAdmin', { summary: 'Import collections and read lists, members in order (SystemAdmin)', description: BATCH, body: ImportListsBodySchema, 200: json(ImportOutcomesSchema, 'One outcome per list'), errors: [400], speculation: 'checked-writes' }),
  importMetadata: imports.post('/admin/import/metadata', 'SystemAdmin', { summary: 'Import metadata edited by hand on the peer, locked, and series’ sharing labels (SystemAdmin)', description: BATCH, body: ImportMetadataBodySchema, 200: json(ImportOutcomesSchema, 'One outcome per series and book'), errors: [400], speculation: 'checked-writes' }),
  importApiKeys: imports.post('/admin/import/api-keys', 'SystemAdmin', { summary: 'Import Komga API keys, which keep working on /komga (SystemAdmin)', description: `${BATCH} A key whose hash another key has collides and is skipped.`, body: ImportApiKeysBodySchema, 200: json(ImportOutcomesSchema, 'One outcome per key'), errors: [400], speculation: 'checked-writes' }),
  importCover: imports.post('/admin/import/covers', 'SystemAdmin', { summary: 'Import a cover uploaded on the peer (SystemAdmin)', description: 'The image is the body (JPEG, PNG or WebP, as a cover upload); it is selected. Once per peer cover.', query: ImportCoverQuerySchema, body: image, 200: json(ImportOutcomeSchema, 'The outcome'), errors: [400, 404, 413], speculation: 'checked-writes' }),
};
