/** Light, dark or the system's choice, remembered per browser. */
import { signal } from '@preact/signals';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'longbox.theme';

export const theme = signal<Theme>((localStorage.getItem(KEY) as Theme | null) ?? 'system');

export function applyTheme(): void {
  const root = document.documentElement;
  if (theme.value === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme.value;
}

export function setTheme(next: Theme): void {
  theme.value = next;
  localStorage.setItem(KEY, next);
  applyTheme();
}
