/**
 * Covers and cards. A cover's box has its size before the image arrives (2:3, the shape of a comic
 * cover), so grids and rows never shift as thumbnails load; images load lazily through the session
 * cookie. A book's or series' cover address carries its `coverVersion` (src/catalog/cover-version.ts): a
 * new cover is a new address on every screen at once, and an unchanged one comes from the browser's cache.
 */
import { apiUrl } from '../api/client';
import { readFraction } from '../../../src/progress/rules';
import type { Book, Series } from '../api/types';
import { t } from '../i18n';

/** A book's or series' cover at its version; a library's (its first series', revalidated by the server) without. */
export function Cover({
  kind,
  id,
  version,
  alt = '',
}: {
  kind: 'books' | 'series' | 'libraries';
  id: string;
  version?: string;
  alt?: string;
}) {
  return (
    <div class="cover">
      <img
        src={apiUrl(`/${kind}/${id}/thumbnail`, version ? { v: version } : undefined)}
        alt={alt}
        loading="lazy"
        decoding="async"
        width={200}
        height={300}
      />
    </div>
  );
}

export function ProgressBar({ fraction, label }: { fraction: number; label: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div
      class="progress-bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}

export function BookCard({ book, showSeries = false }: { book: Book; showSeries?: boolean }) {
  const fraction = readFraction(book.readProgress, book.pageCount);
  return (
    <a class="card-link" href={`/books/${book.id}`} data-book-id={book.id}>
      <Cover kind="books" id={book.id} version={book.coverVersion} />
      <span class="card-link__title">{book.title}</span>
      <span class="card-link__sub">
        {showSeries ? book.seriesName : t('book.pages', { count: book.pageCount })}
        {book.readProgress?.completed && ` · ${t('book.completed')}`}
      </span>
      {fraction > 0 && fraction < 1 && <ProgressBar fraction={fraction} label={book.title} />}
    </a>
  );
}

export function SeriesCard({ series }: { series: Series }) {
  return (
    <a class="card-link" href={`/series/${series.id}`} data-series-id={series.id}>
      <Cover kind="series" id={series.id} version={series.coverVersion} />
      <span class="card-link__title">{series.title}</span>
      <span class="card-link__sub">
        {t('series.bookCount', { count: series.bookCount })}
        {series.unreadCount ? ` · ${t('series.unread', { count: series.unreadCount })}` : ''}
      </span>
    </a>
  );
}

/** A placeholder card of the same size, shown while its data loads. */
export function CardPlaceholder() {
  return (
    <div class="card-link card-link--placeholder" aria-hidden="true">
      <div class="cover" />
      <span class="card-link__title">&nbsp;</span>
      <span class="card-link__sub">&nbsp;</span>
    </div>
  );
}
