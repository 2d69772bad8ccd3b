/** `t('key', { name })`: the message of the active catalogue with its placeholders filled. */
import { en, type MessageKey, type Messages } from './messages';

const catalogues: Record<string, Messages> = { en };
let active: Messages = en;

/** Picks the catalogue for a BCP 47 tag (only English exists today; unknown tags fall back to it). */
export function setLocale(tag: string): void {
  active = catalogues[tag] ?? catalogues[tag.split('-')[0] ?? ''] ?? en;
}

/**
 * `values.count === 1` picks the `<key>.one` message when the catalogue has one ("1 book", not "1 books").
 */
export function t(key: MessageKey, values?: Record<string, string | number>): string {
  const singular = values?.count === 1 ? (active as Record<string, string>)[`${key}.one`] : undefined;
  const message = singular ?? active[key];
  if (!values) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export type { MessageKey };

/** Whether the catalogue has a message for `key` (names built from data: a setting's key, a task's type). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(active, key);
}
