/** `t('key', { name })`: the message of the active catalogue with its placeholders filled. */
import { en, type MessageKey, type Messages } from './messages';

const catalogues: Record<string, Messages> = { en };
let active: Messages = en;

/** Picks the catalogue for a BCP 47 tag (only English exists today; unknown tags fall back to it). */
export function setLocale(tag: string): void {
  active = catalogues[tag] ?? catalogues[tag.split('-')[0] ?? ''] ?? en;
}

export function t(key: MessageKey, values?: Record<string, string | number>): string {
  const message = active[key];
  if (!values) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export type { MessageKey };
