/**
 * Libraries: create and edit (with the storage browser), scan (normal or deep) with live progress from
 * /scans/stream, cancel, empty trash, delete, and upload files or folders into a library.
 */
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { Library, ScanProgressEvent, ScanStatus } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { ProgressBar } from '../components/cards';
import { t } from '../i18n';
import { catalogVersion, subscribe } from '../state/live';
import { LibraryForm } from './library-form';
import { UploadPanel } from './upload-panel';

/** What /scans/stream sends (DECISIONS.md §Tasks and events). */
export type ScanView = Pick<ScanStatus, 'status' | 'filesTotal' | 'filesProcessed' | 'booksFound' | 'errors'>;

function fromEvent(event: ScanProgressEvent): ScanView {
  return {
    status: event.status as ScanView['status'],
    filesTotal: event.files_total,
    filesProcessed: event.files_processed,
    booksFound: event.books_found,
    errors: event.errors,
  };
}

export function LibrariesSection() {
  const { query } = useLocation();
  const version = catalogVersion.value;
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), [version]);
  const [creating, setCreating] = useState(false);
  const [scans, setScans] = useState<Record<string, ScanView>>({});

  // Live scan progress for every library, whoever started the scan.
  useEffect(
    () =>
      subscribe('/scans/stream', {
        scan_progress: (event: ScanProgressEvent) =>
          setScans((current) => ({ ...current, [event.library_id]: fromEvent(event) })),
      }),
    [],
  );

  return (
    <div class="stack">
      <div class="toolbar">
        <button type="button" class="button button--primary" onClick={() => setCreating(!creating)}>
          {t('admin.newLibrary')}
        </button>
      </div>
      {creating && (
        <div class="card">
          <LibraryForm
            onSaved={() => {
              setCreating(false);
              libraries.reload();
            }}
            onCancel={() => setCreating(false)}
          />
        </div>
      )}
      <Async state={libraries}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">{t('home.noLibraries')}</p>
          ) : (
            <div class="stack">
              {list.map((library) => (
                <LibraryPanel
                  key={library.id}
                  library={library}
                  live={scans[library.id]}
                  open={query.library === library.id || list.length === 1}
                  onChanged={libraries.reload}
                />
              ))}
            </div>
          )
        }
      </Async>
    </div>
  );
}

function LibraryPanel({
  library,
  live,
  open,
  onChanged,
}: {
  library: Library;
  live: ScanView | undefined;
  open: boolean;
  onChanged(): void;
}) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const initial = useAsync(
    (signal) => get<ScanStatus>(`/libraries/${library.id}/scan-status`, { signal }),
    [library.id],
  );
  const scan = live ?? initial.data;
  const running = scan?.status === 'running';

  async function act(action: () => Promise<unknown>, done?: string) {
    setError(null);
    setNotice('');
    try {
      await action();
      if (done) setNotice(done);
    } catch (failure) {
      setError(failure);
    }
  }

  const startScan = (mode: 'normal' | 'deep') =>
    act(() => post(`/libraries/${library.id}/scan`, undefined, { query: { mode } }));

  return (
    <article class="card stack" data-library={library.name} aria-labelledby={`library-${library.id}`}>
      <div class="section-head">
        <h2 id={`library-${library.id}`}>{library.name}</h2>
        <span class="muted">
          /{library.path} · {t('library.series', { count: library.seriesCount })} ·{' '}
          {t('series.bookCount', { count: library.bookCount })}
        </span>
      </div>
      <div class="scan-status" aria-live="polite" data-scan-status={scan?.status ?? 'idle'}>
        {running && scan ? (
          <>
            <span>
              {t('admin.scanProgress', { done: scan.filesProcessed, count: scan.filesTotal })} ·{' '}
              {t('admin.booksFound', { count: scan.booksFound })}
            </span>
            <ProgressBar
              fraction={scan.filesTotal > 0 ? scan.filesProcessed / scan.filesTotal : 0}
              label={t('admin.scan')}
            />
          </>
        ) : (
          <span class="muted">
            {scan && scan.status !== 'idle'
              ? [
                  t(`admin.scanStatus.${scan.status}` as 'admin.scanStatus.completed'),
                  t('series.bookCount', { count: scan.booksFound }),
                  t('admin.errorCount', { count: scan.errors }),
                ].join(' · ')
              : t('admin.scanIdle')}
          </span>
        )}
      </div>
      <div class="toolbar">
        <button type="button" class="button" disabled={running} onClick={() => void startScan('normal')}>
          {t('admin.scan')}
        </button>
        <button type="button" class="button" disabled={running} onClick={() => void startScan('deep')}>
          {t('admin.deepScan')}
        </button>
        {running && (
          <button
            type="button"
            class="button"
            onClick={() => void act(() => post(`/libraries/${library.id}/scan/cancel`))}
          >
            {t('admin.cancelScan')}
          </button>
        )}
        <button
          type="button"
          class="button"
          onClick={() => void act(() => post(`/libraries/${library.id}/empty-trash`), t('admin.trashQueued'))}
        >
          {t('admin.emptyTrash')}
        </button>
        <button type="button" class="button" onClick={() => setEditing(!editing)}>
          {t('app.edit')}
        </button>
        <button
          type="button"
          class="button button--danger"
          onClick={() => {
            if (confirm(t('admin.confirmDeleteLibrary', { name: library.name }))) {
              void act(() => del(`/libraries/${library.id}`)).then(onChanged);
            }
          }}
        >
          {t('app.delete')}
        </button>
      </div>
      <ErrorMessage error={error} />
      {notice && <p class="notice">{notice}</p>}
      {editing && (
        <LibraryForm
          library={library}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      <details open={open}>
        <summary>{t('admin.upload')}</summary>
        <UploadPanel
          library={library}
          startScan={() => post(`/libraries/${library.id}/scan`, undefined, { query: { mode: 'normal' } })}
        />
      </details>
    </article>
  );
}
