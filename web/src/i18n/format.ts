/**
 * Dates and times as people read them, in the browser's language (issue 31 point 11: the screens showed
 * raw ISO timestamps). A missing date reads as an em dash.
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const parsed = (value: string | null | undefined) => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "Nov 24, 2026, 9:41 AM" */
export function formatDateTime(value: string | null | undefined): string {
  const date = parsed(value);
  return date ? dateTime.format(date) : '—';
}

/** "Nov 24, 2026" */
export function formatDate(value: string | null | undefined): string {
  const date = parsed(value);
  return date ? dateOnly.format(date) : '—';
}
