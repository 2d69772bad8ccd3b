/**
 * Read lists: every list the user may see, and one list's books in its order. Maintainers reorder a list by
 * dragging a book to a new place, or — without a pointer — with each book's up and down buttons; the order is
 * saved at once (PUT /readlists/{id}/books, which keeps books hidden from the writer where they are). "Read in
 * order" opens the first unfinished book in the reader, which then carries on through the list.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { del, get, put } from '../api/client';
import type { Book, Page, ReadList } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Cover } from '../components/cards';
import { Main } from '../components/page-main';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';
import { canEditLists } from '../state/session';
import { notFoundFor } from './not-found';
import { CreateListForm, ListCard } from './collections';

const PAGE = 500;

export function ReadListsScreen() {
  const { route } = useLocation();
  const version = catalogVersion.value;
  const lists = useAsync(
    (signal) => get<Page<ReadList>>('/readlists', { query: { pageSize: PAGE }, signal }),
    [version],
  );
  return (
    <Main title={t('lists.readLists')}>
      <h1>{t('lists.readLists')}</h1>
      <CreateListForm base="/readlists" onCreated={(id) => route(`/readlists/${id}`)} />
      <Async state={lists}>
        {(page) =>
          page.total === 0 ? (
            <p class="notice">{t('lists.noReadLists')}</p>
          ) : (
            <div class="grid" data-read-lists>
              {page.data.map((list) => (
                <ListCard
                  key={list.id}
                  href={`/readlists/${list.id}`}
                  cover={`/readlists/${list.id}/thumbnail`}
                  name={list.name}
                  sub={t('lists.books', { count: list.bookCount })}
                />
              ))}
            </div>
          )
        }
      </Async>
    </Main>
  );
}

/** `items` with the one at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  const [item] = result.splice(from, 1);
  if (item !== undefined) result.splice(Math.max(0, Math.min(result.length, to)), 0, item);
  return result;
}

export function ReadListScreen({ readListId }: { readListId: string }) {
  const { route } = useLocation();
  const version = catalogVersion.value;
  const list = useAsync((signal) => get<ReadList>(`/readlists/${readListId}`, { signal }), [readListId, version]);
  const books = useAsync(
    (signal) => get<Page<Book>>(`/readlists/${readListId}/books`, { query: { pageSize: PAGE }, signal }),
    [readListId, version],
  );
  const [dragged, setDragged] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const editable = canEditLists.value;

  async function save(order: Book[]) {
    if (!books.data) return;
    const previous = books.data;
    books.set({ ...previous, data: order });
    setError(null);
    try {
      await put(`/readlists/${readListId}/books`, { bookIds: order.map((b) => b.id) });
    } catch (failure) {
      books.set(previous);
      setError(failure);
    }
  }
  async function removeList(name: string) {
    if (!confirm(t('lists.deleteConfirm', { name }))) return;
    try {
      await del(`/readlists/${readListId}`);
      route('/readlists');
    } catch (failure) {
      setError(failure);
    }
  }

  const entries = books.data?.data ?? [];
  const next = entries.find((book) => !book.readProgress?.completed) ?? entries[0];
  const missing = notFoundFor(list.error, 'app.listNotFound');
  if (missing) return missing;
  return (
    <Main title={list.data?.name}>
      <Async state={list}>
        {(info) => (
          <>
            <h1>{info.name}</h1>
            {info.summary && <p class="summary">{info.summary}</p>}
            <div class="toolbar">
              {next && (
                <a class="button button--primary" href={`/read/${next.id}?readlist=${readListId}`} data-read-in-order>
                  {t('lists.readInOrder')}
                </a>
              )}
              {editable && (
                <button type="button" class="button button--danger" onClick={() => void removeList(info.name)}>
                  {t('app.delete')}
                </button>
              )}
            </div>
            {editable && entries.length > 1 && <p class="muted">{t('lists.reorderHint')}</p>}
          </>
        )}
      </Async>
      <ErrorMessage error={error} />
      <Async state={books}>
        {(page) =>
          page.total === 0 ? (
            <p class="notice">{t('lists.empty')}</p>
          ) : (
            <ol class="read-list" data-read-list-books>
              {page.data.map((book, index) => (
                <li
                  key={book.id}
                  class={`read-list__item${dragged === index ? ' read-list__item--dragged' : ''}`}
                  data-book-id={book.id}
                  draggable={editable}
                  onDragStart={(event) => {
                    setDragged(index);
                    event.dataTransfer?.setData('text/plain', book.id);
                  }}
                  onDragOver={(event) => editable && event.preventDefault()}
                  onDrop={(event) => {
                    event.preventDefault();
                    if (dragged !== null && dragged !== index) void save(moved(page.data, dragged, index));
                    setDragged(null);
                  }}
                  onDragEnd={() => setDragged(null)}
                >
                  <span class="read-list__position">{index + 1}</span>
                  <a class="read-list__book" href={`/read/${book.id}?readlist=${readListId}`}>
                    <span class="read-list__cover">
                      <Cover kind="books" id={book.id} version={book.coverVersion} />
                    </span>
                    <span>
                      <span class="card-link__title">{book.title}</span>
                      <span class="card-link__sub">
                        {book.seriesName}
                        {book.readProgress?.completed && ` · ${t('book.completed')}`}
                      </span>
                    </span>
                  </a>
                  {editable && (
                    <span class="read-list__actions">
                      <button
                        type="button"
                        class="button button--small"
                        aria-label={t('lists.moveUp', { title: book.title })}
                        disabled={index === 0}
                        onClick={() => void save(moved(page.data, index, index - 1))}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        class="button button--small"
                        aria-label={t('lists.moveDown', { title: book.title })}
                        disabled={index === page.data.length - 1}
                        onClick={() => void save(moved(page.data, index, index + 1))}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        class="button button--small"
                        aria-label={t('lists.remove', { title: book.title })}
                        onClick={() => void save(page.data.filter((b) => b.id !== book.id))}
                      >
                        ✕
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )
        }
      </Async>
    </Main>
  );
}
