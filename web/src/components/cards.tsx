/**
 * Covers and cards. A cover's box has its size before the image arrives (2:3, the shape of a comic
 * cover), so grids and rows never shift as thumbnails load; images load lazily through the session
 * cookie. A book's or series' cover address carries its `coverVersion` (src/catalog/cover-version.ts): a
 * new cover is a new address on every screen at once, and an unchanged one comes from the browser's cache.
 */
import type { ComponentChildren } from 'preact';
import { apiUrl } from '../api/client';
import { readFraction } from '../../../src/progress/rules';
import type { Book, Series } from '../api/types';
import { t } from '../i18n';
import type { Selectable } from './selection';

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

export function BookCard({
  book,
  showSeries = false,
  selection,
}: {
  book: Book;
  showSeries?: boolean;
  /** While a grid is selecting: the card is a checkbox. */
  selection?: Selectable;
}) {
  const fraction = readFraction(book.readProgress, book.pageCount);
  return (
    <CardFrame href={`/books/${book.id}`} data={{ 'data-book-id': book.id }} title={book.title} selection={selection}>
      <Cover kind="books" id={book.id} version={book.coverVersion} />
      <span class="card-link__title">{book.title}</span>
      <span class="card-link__sub">
        {showSeries ? book.seriesName : t('book.pages', { count: book.pageCount })}
        {book.readProgress?.completed && ` · ${t('book.completed')}`}
      </span>
      {fraction > 0 && fraction < 1 && <ProgressBar fraction={fraction} label={book.title} />}
    </CardFrame>
  );
}

/** A card: a link to the item, or, while its grid is selecting, a checkbox named by its title. */
function CardFrame({
  href,
  data,
  title,
  selection,
  children,
}: {
  href: string;
  data: Record<string, string>;
  title: string;
  selection?: Selectable;
  children: ComponentChildren;
}) {
  if (!selection) {
    return (
      <a class="card-link" href={href} {...data}>
        {children}
      </a>
    );
  }
  return (
    <label class="card-link card-link--selectable" data-selected={selection.selected ? 'true' : 'false'} {...data}>
      <input
        type="checkbox"
        class="card-link__check"
        checked={selection.selected}
        aria-label={title}
        onChange={selection.onToggle}
      />
      {children}
    </label>
  );
}

export function SeriesCard({ series, selection }: { series: Series; selection?: Selectable }) {
  return (
    <CardFrame
      href={`/series/${series.id}`}
      data={{ 'data-series-id': series.id }}
      title={series.title}
      selection={selection}
    >
      <Cover kind="series" id={series.id} version={series.coverVersion} />
      <span class="card-link__title">{series.title}</span>
      <span class="card-link__sub">
        {t('series.bookCount', { count: series.bookCount })}
        {series.unreadCount ? ` · ${t('series.unread', { count: series.unreadCount })}` : ''}
      </span>
    </CardFrame>
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
