/** Placeholder until the reader lands (owned by the `reader` branch: web/src/reader/**). */
import { t } from '../i18n';

export function ReaderScreen({ bookId }: { bookId: string }) {
  return (
    <main class="page">
      <p>
        {t('app.loading')} {bookId}
      </p>
    </main>
  );
}
