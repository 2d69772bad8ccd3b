/** Groups of books with identical content: look, open them, dismiss a group, or scan for new ones. */
import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { DuplicateGroup, Page } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { t } from '../i18n';

export function DuplicatesSection() {
  const groups = useAsync(
    (signal) => get<Page<DuplicateGroup>>('/duplicates', { query: { pageSize: 100 }, signal }),
    [],
  );
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  async function act(action: () => Promise<unknown>, message = '') {
    setError(null);
    setNotice('');
    try {
      await action();
      setNotice(message);
      groups.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <div class="stack">
      <div class="toolbar">
        <button
          type="button"
          class="button"
          onClick={() => void act(() => post('/duplicates/scan'), t('admin.duplicateScanQueued'))}
        >
          {t('admin.findDuplicates')}
        </button>
      </div>
      <ErrorMessage error={error} />
      {notice && <p class="notice">{notice}</p>}
      <Async state={groups}>
        {(page) =>
          page.data.length === 0 ? (
            <p class="muted">{t('admin.noDuplicates')}</p>
          ) : (
            <div class="stack">
              {page.data.map((group) => (
                <div class="card" key={group.id}>
                  <ul>
                    {group.books.map((book) => (
                      <li key={book.id}>
                        <a href={`/books/${book.id}`}>{book.title}</a> <span class="muted">{book.path}</span>
                      </li>
                    ))}
                  </ul>
                  <button
                    type="button"
                    class="button button--small"
                    onClick={() => void act(() => del(`/duplicates/${group.id}`))}
                  >
                    {t('admin.dismiss')}
                  </button>
                </div>
              ))}
            </div>
          )
        }
      </Async>
    </div>
  );
}
