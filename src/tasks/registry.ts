/**
 * Every background task type the TaskRunner runs, and its handler. `satisfies` makes a missing or extra
 * handler a type error; scan_library is run by the library's LibraryScan Durable Object, hash_files and
 * generate_thumbnails by the book-work queue consumers (src/ingest).
 */
import { analyzeBook, analyzeSeries } from './handlers/analyze-books';
import { findDuplicates } from './handlers/find-duplicates';
import { purgeDeleted } from './handlers/purge-deleted';
import type { RunnerTaskType, TaskHandler } from './task-handler';

export const TASK_HANDLERS = {
  analyze_book: analyzeBook,
  analyze_series: analyzeSeries,
  find_duplicates: findDuplicates,
  purge_deleted: purgeDeleted,
} satisfies Record<RunnerTaskType, TaskHandler>;
