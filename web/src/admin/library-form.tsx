/** Creating or editing a library: name, folder (typed or picked in the storage browser), direction. */
import { useState } from 'preact/hooks';
import { post, put } from '../api/client';
import type { Library } from '../api/types';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { t } from '../i18n';
import { libraryFolderFor } from '../../../src/storage/key-paths';
import { StorageBrowser } from './storage-browser';

const DIRECTIONS = ['ltr', 'rtl', 'ttb', 'webtoon'] as const;

export function LibraryForm({
  library,
  onSaved,
  onCancel,
}: {
  library?: Library;
  onSaved(library: Library): void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(library?.name ?? '');
  // A library over the whole storage shows "/", so an empty field always means "a folder named after it".
  const [path, setPath] = useState(library ? library.path || '/' : '');
  const [direction, setDirection] = useState<string>(library?.defaultReadingDirection ?? 'ltr');
  const [browsing, setBrowsing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // No folder typed: the server gives a new library one named after it (DECISIONS.md §Storage).
      const folder = path.trim();
      const body = { name: name.trim(), ...(folder ? { path: folder } : {}), defaultReadingDirection: direction };
      const saved = library
        ? await put<Library>(`/libraries/${library.id}`, body)
        : await post<Library>('/libraries', body);
      onSaved(saved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={submit} aria-label={library ? t('admin.editLibrary') : t('admin.newLibrary')}>
      <Field label={t('admin.libraryName')} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
      <div class="field">
        <Field
          label={t('admin.libraryPath')}
          hint={t(library ? 'admin.libraryPathHintEdit' : 'admin.libraryPathHint')}
          value={path}
          onInput={(e) => setPath(e.currentTarget.value)}
          placeholder={library ? undefined : libraryFolderFor(name.trim() || 'Comics')}
        />
        <button type="button" class="button button--small" onClick={() => setBrowsing(!browsing)}>
          {t('admin.browse')}
        </button>
        {browsing && (
          <StorageBrowser
            value={path}
            onPick={(picked) => {
              setPath(picked);
              setBrowsing(false);
            }}
          />
        )}
      </div>
      <label class="field">
        <span class="field__label">{t('admin.readingDirection')}</span>
        <select class="select" value={direction} onChange={(e) => setDirection(e.currentTarget.value)}>
          {DIRECTIONS.map((value) => (
            <option key={value} value={value}>
              {t(`direction.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage error={error} />
      <div class="toolbar">
        <button class="button button--primary" type="submit" disabled={busy}>
          {library ? t('app.save') : t('admin.createLibrary')}
        </button>
        {onCancel && (
          <button class="button" type="button" onClick={onCancel}>
            {t('app.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
