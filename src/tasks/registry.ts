/**
 * Every background task type and its handler. `satisfies` makes a missing or extra handler a type
 * error; scan_library is run by the library's LibraryScan Durable Object instead.
 */
import type { TaskType } from '../repositories/tasks.repository';
import { analyzeBook, analyzeSeries } from './handlers/analyze-books';
import { findDuplicates } from './handlers/find-duplicates';
import { generateThumbnails } from './handlers/generate-thumbnails';
import { hashFiles } from './handlers/hash-files';
import { purgeDeleted } from './handlers/purge-deleted';
import type { TaskHandler } from './task-handler';

export const TASK_HANDLERS = {
  analyze_book: analyzeBook,
  analyze_series: analyzeSeries,
  hash_files: hashFiles,
  generate_thumbnails: generateThumbnails,
  find_duplicates: findDuplicates,
  purge_deleted: purgeDeleted,
} satisfies Record<Exclude<TaskType, 'scan_library'>, TaskHandler>;
