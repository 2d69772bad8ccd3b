import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { createdAt, id, updatedAt } from './columns';
import { series } from './series';

/**
 * Covers a user uploaded for a series or a book (issue 18; Komga's USER_UPLOADED thumbnails, Codex-rs's
 * custom covers). The generated cover — a book's cover page, a series' first book — is not a row: it is
 * what shows when no uploaded cover is selected. At most one cover of an owner is `selected`. The image as
 * uploaded and the thumbnail the renderer made from it live in the CACHE bucket under `covers/<id>/`
 * (storage/cache-keys.ts), never among the user's book files.
 */
export const covers = sqliteTable(
  'covers',
  {
    id: id(),
    /** Exactly one of seriesId and bookId is set. */
    seriesId: text('series_id').references(() => series.id, { onDelete: 'cascade' }),
    bookId: text('book_id').references(() => books.id, { onDelete: 'cascade' }),
    /** The uploaded image's type (sniffed from its bytes), size and pixel dimensions. */
    mediaType: text('media_type').notNull(),
    fileSize: integer('file_size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    selected: integer('selected', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('covers_series_idx').on(t.seriesId).where(sql`series_id IS NOT NULL`),
    index('covers_book_idx').on(t.bookId).where(sql`book_id IS NOT NULL`),
  ],
);
