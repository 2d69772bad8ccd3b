/**
 * Drag and drop (or pick) book files and whole folders; they upload into the library's folder with one
 * progress bar over all bytes, then a scan starts so the books appear. The report says whether it did:
 * nothing new uploaded starts none, and a scan the server refused is said so (issue 31 point 7).
 */
import { useRef, useState } from 'preact/hooks';
import type { Library } from '../api/types';
import { ProgressBar } from '../components/cards';
import { errorText } from '../components/async';
import { t } from '../i18n';
import { itemsFromDrop, itemsFromFiles, type UploadItem, type UploadReport, uploadAll } from './uploader';

/** What became of the scan after an upload: none (nothing new), started, or refused with the server's words. */
type ScanAfterUpload = { kind: 'none' } | { kind: 'started' } | { kind: 'failed'; message: string };

export function UploadPanel({ library, startScan }: { library: Library; startScan(): Promise<void> }) {
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<{ sent: number; total: number; current: string } | null>(null);
  const [report, setReport] = useState<UploadReport | null>(null);
  const [scan, setScan] = useState<ScanAfterUpload>({ kind: 'none' });
  const [message, setMessage] = useState('');
  const abort = useRef<AbortController | null>(null);

  async function start(items: UploadItem[]) {
    setReport(null);
    if (items.length === 0) {
      setMessage(t('admin.uploadNothing'));
      return;
    }
    setMessage('');
    abort.current = new AbortController();
    setProgress({ sent: 0, total: 1, current: '' });
    const result = await uploadAll(
      library.id,
      items,
      (sent, total, current) => setProgress({ sent, total, current }),
      abort.current.signal,
    );
    setProgress(null);
    setScan({ kind: 'none' });
    setReport(result);
    if (result.uploaded.length === 0) return;
    try {
      await startScan();
      setScan({ kind: 'started' });
    } catch (failure) {
      setScan({ kind: 'failed', message: errorText(failure) });
    }
  }

  return (
    <div class="stack">
      {/* Dropping is one way in; the two pickers below do the same from the keyboard. */}
      <section
        class={over ? 'dropzone dropzone--over' : 'dropzone'}
        aria-label={t('admin.upload')}
        data-dropzone
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (event.dataTransfer) void itemsFromDrop(event.dataTransfer).then(start);
        }}
      >
        <p>{t('admin.dropHere')}</p>
        <div class="toolbar">
          <label class="button">
            {t('admin.pickFiles')}
            <input
              type="file"
              multiple
              accept=".cbz,.cbr,.epub,.pdf"
              class="visually-hidden"
              onChange={(event) => void start(itemsFromFiles(event.currentTarget.files ?? []))}
            />
          </label>
          <label class="button">
            {t('admin.pickFolder')}
            <input
              type="file"
              class="visually-hidden"
              data-folder-input
              {...{ webkitdirectory: true }}
              onChange={(event) => void start(itemsFromFiles(event.currentTarget.files ?? []))}
            />
          </label>
        </div>
      </section>
      {progress && (
        <div class="stack" aria-live="polite" data-upload-progress>
          <span>
            {t('admin.uploading', {
              percent: Math.round((progress.sent / Math.max(1, progress.total)) * 100),
              file: progress.current,
            })}
          </span>
          <ProgressBar fraction={progress.sent / Math.max(1, progress.total)} label={t('admin.upload')} />
          <button type="button" class="button button--small" onClick={() => abort.current?.abort()}>
            {t('app.cancel')}
          </button>
        </div>
      )}
      {message && <p class="muted">{message}</p>}
      {report && (
        <div class="notice" role="status" data-upload-report>
          {t('admin.uploadReport', {
            uploaded: report.uploaded.length,
            existing: report.existing.length,
            failed: report.failed.length,
          })}{' '}
          {scan.kind === 'started'
            ? t('admin.uploadScanStarted')
            : scan.kind === 'failed'
              ? t('admin.uploadScanFailed', { message: scan.message })
              : report.uploaded.length === 0
                ? t('admin.uploadNoScan')
                : ''}
          {report.failed.length > 0 && (
            <ul>
              {report.failed.map((failure) => (
                <li key={failure.path}>
                  {failure.path}: {failure.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
