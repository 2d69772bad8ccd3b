/**
 * A screen's `<main>` landmark, the target of the app shell's skip link (`#main`). Every screen draws its
 * content in one; `wide` gives the admin screens the full width for their tables.
 */
import type { ComponentChildren } from 'preact';

export function Main({ children, wide = false }: { children: ComponentChildren; wide?: boolean }) {
  return (
    <main id="main" class={wide ? 'page page--wide' : 'page'} tabIndex={-1}>
      {children}
    </main>
  );
}
