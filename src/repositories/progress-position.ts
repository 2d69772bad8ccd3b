/**
 * A position a client sends, worked out from the book's row inside the statement that writes it: the rules of
 * src/progress/rules.ts (page range, fraction, completion, reflowable or paged) as SQL over `books`, so that a
 * progress write needs no read of the book before it (docs/ARCHITECTURE.md, "The credential check beside the
 * request": the write is one round trip). Each expression names the rule it restates;
 * test/api/progress-position.test.ts checks them against rules.ts over many books and positions.
 */
import { type SQL, sql } from 'drizzle-orm';
import { books } from '../db/schema';

/** Where a client says the reader is, before the book is known. */
export type SentPosition =
  /** PUT /books/{id}/progress. */
  | { kind: 'page'; page: number; completed: boolean; fraction?: number; locator: string | null }
  /** KOReader's push; `fitsLocator`: its progress is short enough to keep as an EPUB's locator. */
  | { kind: 'kosync'; progress: string; fraction: number; fitsLocator: boolean };

/** The SQL of a sent position over the book's row. */
export const positionSql = (position: SentPosition): PositionSql =>
  position.kind === 'page'
    ? sentPage(position.page, position.completed, position.fraction, position.locator)
    : kosyncPosition(position.progress, position.fraction, position.fitsLocator);

/** What a write sets, from the book's row, and whether the position is one the book has. */
export interface PositionSql {
  /** The position exists in the book; nothing is written otherwise. */
  valid: SQL;
  currentPage: SQL;
  /** 1 or 0. */
  completed: SQL;
  progressPercentage: SQL;
  locator: SQL;
}

/** rules.ts `lastPage`. */
const LAST_PAGE = sql`max(${books.pageCount}, 1)`;
/** rules.ts `isReflowable`. */
const REFLOWABLE = sql`(${books.fileFormat} = 'epub' AND coalesce(${books.epubLayout}, '') <> 'image')`;
const EPUB = sql`(${books.fileFormat} = 'epub')`;

/** rules.ts `fractionAtPage`: page / lastPage, in floating point as JavaScript divides. */
const fractionAtPage = (page: SQL) => sql`(CAST(${page} AS REAL) / ${LAST_PAGE})`;

/** Math.ceil of a value ≥ 0 (SQLite's ceil() needs its math functions, which D1 need not have). */
const ceil = (value: SQL) => sql`(CAST(${value} AS INTEGER) + (${value} > CAST(${value} AS INTEGER)))`;

/** rules.ts `pageAtFraction`. */
const pageAtFraction = (fraction: number) => sql`min(${LAST_PAGE}, max(1, ${ceil(sql`(${fraction} * ${LAST_PAGE})`)}))`;

/**
 * PUT /books/{id}/progress: a page of the book (rules.ts `isPageInRange`; a book without pages has none),
 * completion as sent, the fraction a reflowable EPUB's reader sent kept (rules.ts `progressFraction`), the
 * locator as sent.
 */
function sentPage(page: number, completed: boolean, sent: number | undefined, locator: string | null) {
  const at = sql`${page}`;
  return {
    valid: sql`(${page} BETWEEN 1 AND ${books.pageCount})`,
    currentPage: at,
    completed: sql`${completed ? 1 : 0}`,
    progressPercentage:
      sent === undefined
        ? fractionAtPage(at)
        : sql`CASE WHEN ${REFLOWABLE} THEN ${sent} ELSE ${fractionAtPage(at)} END`,
    locator: sql`${locator}`,
  } satisfies PositionSql;
}

/**
 * KOReader's push (koreader/kosync.service.ts): an EPUB moves by KOReader's fraction — the page it falls on
 * (rules.ts `pageAtFraction`), completed at the end (`completesAtFraction`), the xpointer kept as the locator
 * when it `fits` one — and any other book by a page number from 1 to its last page (`lastPage`), completed
 * on the last (`completesAtPage`).
 */
function kosyncPosition(progress: string, fraction: number, fits: boolean) {
  const page = /^[0-9]+$/.test(progress) ? Number(progress) : null;
  const epubPage = pageAtFraction(fraction);
  const pageValid = page === null ? sql`0` : sql`(${page} BETWEEN 1 AND ${LAST_PAGE})`;
  return {
    valid: sql`CASE WHEN ${EPUB} THEN ${fits ? 1 : 0} ELSE ${pageValid} END`,
    currentPage: sql`CASE WHEN ${EPUB} THEN ${epubPage} ELSE ${page ?? 0} END`,
    completed: sql`CASE WHEN ${EPUB} THEN ${fraction >= 1 ? 1 : 0} ELSE ${page ?? 0} >= ${LAST_PAGE} END`,
    progressPercentage: sql`CASE WHEN ${REFLOWABLE} THEN ${fraction}
      WHEN ${EPUB} THEN ${fractionAtPage(epubPage)} ELSE ${fractionAtPage(sql`${page ?? 0}`)} END`,
    locator: sql`CASE WHEN ${EPUB} THEN ${progress} END`,
  } satisfies PositionSql;
}
