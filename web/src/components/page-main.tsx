/**
 * A screen's `<main>` landmark, the target of the app shell's skip link (`#main`). Every screen draws its
 * content in one; `wide` gives the admin screens the full width for their tables. `title` names the screen
 * in the browser's tab and history (issue 31 point 11: every tab said "Longbox"); a screen whose name is
 * still loading passes none and keeps the previous one until it has it.
 */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { t } from '../i18n';

export function Main({
  children,
  wide = false,
  title,
}: {
  children: ComponentChildren;
  wide?: boolean;
  title?: string;
}) {
  useDocumentTitle(title);
  return (
    <main id="main" class={wide ? 'page page--wide' : 'page'} tabIndex={-1}>
      {children}
    </main>
  );
}

/** "Harbor Lights · Longbox"; the app's name alone for none. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title === undefined) return;
    const name = t('app.name');
    document.title = title ? `${title} · ${name}` : name;
  }, [title]);
}
