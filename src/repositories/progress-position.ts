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
  | { kind: 'kosync'; progress: string; fraction: number; fitsLocator: boolean }
  /**
   * A Kobo's reading state (kobo/kobo-progress.ts `sentFromKobo`): finished, or reading at `fraction` of the
   * book (0–1; none sent: the start) on the page file its bookmark names (`namedPage`, a comic's EPUB), with the
   * locator a reflowable EPUB keeps.
   */
  | { kind: 'kobo'; finished: boolean; fraction?: number; namedPage: number | null; locator: string | null };

/** The SQL of a sent position over the book's row. */
export function positionSql(position: SentPosition): PositionSql {
  switch (position.kind) {
    case 'page':
      return sentPage(position.page, position.completed, position.fraction, position.locator);
    case 'kosync':
      return kosyncPosition(position.progress, position.fraction, position.fitsLocator);
    case 'kobo':
      return koboPosition(position);
  }
}

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
/** A comic archive, which a Kobo gets as a fixed-layout EPUB of one page file per page. */
const COMIC = sql`(${books.fileFormat} IN ('cbz', 'cbr'))`;

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

/**
 * A Kobo's reading state (DECISIONS.md §Kobo e-readers, reading state): finished is the last page, completed, the
 * whole book read (rules.ts `progressFraction` of the last page, or 1 sent). Reading: a comic is on the page file
 * its bookmark names when the comic has that page, else on the page its fraction falls on (`pageAtFraction`);
 * any other book on its fraction's page; a reflowable EPUB keeps the fraction and the locator and completes at
 * the end (`completesAtFraction`), any other book on its last page (`completesAtPage`).
 */
function koboPosition(sent: Extract<SentPosition, { kind: 'kobo' }>): PositionSql {
  if (sent.finished) {
    return { valid: sql`1`, currentPage: LAST_PAGE, completed: sql`1`, progressPercentage: sql`1`, locator: sql`NULL` };
  }
  const fraction = sent.fraction ?? 0;
  const atFraction = pageAtFraction(fraction);
  const page =
    sent.namedPage === null
      ? atFraction
      : sql`CASE WHEN ${COMIC} AND ${sent.namedPage} BETWEEN 1 AND ${LAST_PAGE} THEN ${sent.namedPage}
          ELSE ${atFraction} END`;
  return {
    valid: sql`1`,
    currentPage: page,
    completed: sql`CASE WHEN ${REFLOWABLE} THEN ${fraction >= 1 ? 1 : 0} ELSE ${page} >= ${LAST_PAGE} END`,
    progressPercentage: sql`CASE WHEN ${REFLOWABLE} THEN ${fraction} ELSE ${fractionAtPage(page)} END`,
    locator: sql`CASE WHEN ${REFLOWABLE} THEN ${sent.locator} END`,
  } satisfies PositionSql;
}
