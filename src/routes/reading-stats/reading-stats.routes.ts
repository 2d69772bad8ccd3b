import { z } from '@hono/zod-openapi';
import { PROGRESS_READ as READ, PROGRESS_WRITE as WRITE } from '../../auth/permissions';
import { BinarySchema } from '../../schemas/page.schema';
import {
  DeviceParamSchema,
  ExportedSessionSchema,
  ExportQuerySchema,
  KOREADER_STATISTICS_MAX_BYTES,
  KoreaderUploadResultSchema,
  ReadingCoverageSchema,
  ReadingStatsSchema,
  RecordSessionsBodySchema,
  RecordSessionsResultSchema,
  RenameDeviceBodySchema,
  ServerStatsSchema,
  StatsQuerySchema,
} from '../../schemas/reading-stats.schema';
import { contractsFor, empty, json } from '../contract';

const stats = contractsFor('Reading statistics');
const RECORD_RULES =
  "Codex-rs's contract (docs/API.md §Reading statistics): up to 500 sessions; each is accepted or rejected with a " +
  'reason (book_not_found, invalid_time_range, invalid_percentage, invalid_measurement, duplicate_in_batch); the ' +
  'accepted ones are written together or not at all; an id sent before is accepted again and changes nothing.';
const KOREADER =
  "KOReader's statistics database (`statistics.sqlite3`, in KOReader's settings folder) as the raw request body, " +
  `at most ${KOREADER_STATISTICS_MAX_BYTES / 1024 / 1024} MiB. Each book's page times become sittings (pages less ` +
  "than 5 minutes apart), matched to the books the caller sees by KOReader's document hash (readerHash), and " +
  'recorded as measured time; a sitting that overlaps one KOReader sync opened takes its place. Sending the ' +
  'database again adds nothing (a sitting keeps its id, `koreader:<md5>:<first second>`, and takes its new ' +
  'figures). Not a SQLite database, damaged, cut short or not KOReader’s → 400 with the reason; larger → 413.';
const KOREADER_BODY = {
  required: true,
  content: {
    'application/vnd.sqlite3': { schema: BinarySchema },
    'application/octet-stream': { schema: BinarySchema },
  },
};
const exported = {
  description: 'Every session on books the caller sees, oldest first',
  content: {
    'application/json': { schema: z.array(ExportedSessionSchema) },
    'text/csv': { schema: z.string().openapi({ description: 'The same rows as CSV with a header row' }) },
  },
};

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  recordSessions: stats.post('/reading-sessions', WRITE, { summary: 'Record measured reading sessions (ProgressWrite or BooksWrite)', description: RECORD_RULES, body: RecordSessionsBodySchema, 200: json(RecordSessionsResultSchema, 'What became of each session'), errors: [400] }),
  recordKoreader: stats.post('/reading-sessions/koreader', WRITE, { summary: "Record the reading KOReader's statistics database measured (ProgressWrite or BooksWrite)", description: KOREADER, body: KOREADER_BODY, 200: json(KoreaderUploadResultSchema, 'What became of the sittings'), errors: [400, 413] }),
  exportSessions: stats.get('/reading-sessions/export', READ, { summary: "The caller's reading sessions as JSON or CSV (ProgressRead or BooksRead)", query: ExportQuerySchema, 200: exported, errors: [400] }),
  deleteSessions: stats.delete('/reading-sessions', WRITE, { summary: "Delete all of the caller's reading sessions (ProgressWrite or BooksWrite)", 204: empty('Deleted') }),
  readingStats: stats.get('/reading-stats', READ, { summary: "The caller's reading over a window: totals, periods, devices, series, authors, formats (ProgressRead or BooksRead)", query: StatsQuerySchema, 200: json(ReadingStatsSchema, 'The statistics'), errors: [400] }),
  coverage: stats.get('/reading-stats/coverage', READ, { summary: "When the caller's recorded reading starts and ends (ProgressRead or BooksRead)", 200: json(ReadingCoverageSchema, 'First and last reading') }),
  renameDevice: stats.put('/reading-devices/{deviceId}', WRITE, { summary: 'Name one of the caller’s reading devices (ProgressWrite or BooksWrite)', params: DeviceParamSchema, body: RenameDeviceBodySchema, 204: empty('Renamed'), errors: [400, 404] }),
  serverStats: stats.get('/admin/reading-stats', 'SystemAdmin', { summary: "The server's reading: totals, most read series, most active users, libraries; counts only (SystemAdmin)", query: StatsQuerySchema, 200: json(ServerStatsSchema, 'The statistics'), errors: [400] }),
};
