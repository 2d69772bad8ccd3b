/**
 * The numbers reading statistics are made of (docs/DECISIONS.md §Reading statistics), written once: how
 * progress writes fold into sittings, what a measured session may claim, and how many a request may carry.
 * Codex-rs's client contract (AshDevFr/codex docs/docs/reading-sessions.md) fixes the window and the batch.
 */
import type { FoldRules } from '../repositories/reading-sessions.repository';

/** Writes of one device on one book closer than this are one sitting (Codex-rs's COALESCE_WINDOW_MINUTES). */
export const MERGE_WINDOW_MS = 5 * 60_000;

/** The least time a page takes: progress that jumps further than its gap allows is a skip, not reading. */
export const MS_PER_PAGE = 2_000;

/** Sessions in one POST /reading-sessions (Codex-rs: chunk anything larger). */
export const MAX_SESSIONS_PER_BATCH = 500;

/** A sitting longer than a day is a clock error, not reading. */
export const MAX_SESSION_SPAN_MS = 24 * 3_600_000;

export const FOLD_RULES: FoldRules = {
  mergeWindowMs: MERGE_WINDOW_MS,
  msPerPage: MS_PER_PAGE,
  maxSessionMs: MAX_SESSION_SPAN_MS,
};

/** The longest window GET /reading-stats answers for (a few years of a heavy reader stay one statement). */
export const MAX_STATS_WINDOW_DAYS = 3 * 366 + 1;
