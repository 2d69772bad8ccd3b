/**
 * Nothing at this address: an unknown path, or a series, book or list that is not there for this user.
 * A hidden item reads exactly as a missing one (the server answers both with the same 404), once, with no
 * "try again" (issue 31 point 11).
 */
import { ApiError } from '../api/client';
import { Main } from '../components/page-main';
import { type MessageKey, t } from '../i18n';

export function NotFoundScreen() {
  return <NotFound title={t('app.notFound')} hint={t('app.notFoundHint')} />;
}

/** The whole screen's answer when `error` is the API's 404 for the thing the screen shows; null otherwise. */
export function notFoundFor(error: unknown, title: MessageKey) {
  if (!(error instanceof ApiError) || error.status !== 404) return null;
  return <NotFound title={t(title)} hint={t('app.itemNotFoundHint')} />;
}

function NotFound({ title, hint }: { title: string; hint: string }) {
  return (
    <Main title={title}>
      <h1 data-not-found>{title}</h1>
      <p>{hint}</p>
      <a href="/">{t('nav.home')}</a>
    </Main>
  );
}
