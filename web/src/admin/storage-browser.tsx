/**
 * Picking a library's folder: the storage (the library bucket, DECISIONS.md §Storage) browsed folder by
 * folder through GET /filesystem/browse, with the books each folder holds shown for orientation.
 */
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { BrowseResult } from '../api/types';
import { Async, useAsync } from '../components/async';
import { t } from '../i18n';

export function StorageBrowser({ value, onPick }: { value: string; onPick(path: string): void }) {
  const [path, setPath] = useState(value);
  const listing = useAsync((signal) => get<BrowseResult>('/filesystem/browse', { query: { path }, signal }), [path]);
  return (
    <fieldset class="browser" aria-label={t('admin.storage')}>
      <div class="browser__bar">
        <code class="browser__path">/{path}</code>
        <button type="button" class="button button--small button--primary" onClick={() => onPick(path)}>
          {t('admin.useFolder')}
        </button>
      </div>
      <Async state={listing}>
        {(result) => (
          <ul class="browser__list">
            {result.parent !== null && (
              <li>
                <button type="button" class="browser__entry" onClick={() => setPath(result.parent ?? '')}>
                  ↑ ..
                </button>
              </li>
            )}
            {result.folders.map((folder) => (
              <li key={folder.path}>
                <button type="button" class="browser__entry" onClick={() => setPath(folder.path)}>
                  📁 {folder.name}
                </button>
              </li>
            ))}
            {result.files.slice(0, 20).map((file) => (
              <li key={file.key} class="browser__file muted">
                {file.name}
              </li>
            ))}
            {result.folders.length === 0 && result.files.length === 0 && (
              <li class="muted">{t('admin.emptyFolder')}</li>
            )}
          </ul>
        )}
      </Async>
    </fieldset>
  );
}
