/**
 * The API's refusals in people's words (issue 31 point 11). A 400 names each field it refused with the
 * validator's message (`year: Invalid input: expected number, received string`), written for developers;
 * the screens say "Year must be a number" instead, with the field's name as the form shows it. A message
 * this module does not know keeps its words behind the field's name.
 */
import { hasMessage, t } from '../i18n';
import type { ApiError } from './client';

interface FieldIssue {
  path: string;
  message: string;
}

/** Catalogue keys of field names, by the last word of the path; list items add their number. */
const FIELD_NAMES: Record<string, string> = {
  name: 'lists.name',
  username: 'auth.username',
  email: 'auth.email',
  password: 'auth.password',
  path: 'admin.libraryPath',
  value: 'error.field.value',
  url: 'error.field.url',
  label: 'error.field.label',
  role: 'admin.role',
};

/** "authors.0.name" → "Name (2nd credit)"-like words: the field's name, and which item of a list it is in. */
export function fieldName(path: string): string {
  const parts = path.split('.');
  const last = parts.filter((part) => !/^\d+$/.test(part)).pop() ?? path;
  const item = parts.find((part) => /^\d+$/.test(part));
  const key = FIELD_NAMES[last] ?? `metadata.${last}`;
  const name = hasMessage(key) ? t(key) : humanized(last);
  return item === undefined ? name : t('error.field.item', { field: name, number: Number(item) + 1 });
}

/** `expiresAt` → "Expires at". */
function humanized(word: string): string {
  const spaced = word
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const RULES: ReadonlyArray<[RegExp, (field: string, match: RegExpExecArray) => string]> = [
  [/^Invalid input: expected int/, (field) => t('error.wholeNumber', { field })],
  [/^Invalid input: expected number/, (field) => t('error.number', { field })],
  [/^Invalid input: expected string/, (field) => t('error.text', { field })],
  [/^Invalid input: expected boolean/, (field) => t('error.yesNo', { field })],
  [/^Invalid input: expected (?:array|object)/, (field) => t('error.list', { field })],
  [/^Too big: expected number to be <=?\s*(-?[\d.]+)/, (field, m) => t('error.atMost', { field, max: m[1]! })],
  [/^Too small: expected number to be >=?\s*(-?[\d.]+)/, (field, m) => t('error.atLeast', { field, min: m[1]! })],
  [/^Too big: expected string to have <=?\s*(\d+)/, (field, m) => t('error.longest', { field, max: m[1]! })],
  [
    /^Too small: expected string to have >=?\s*(\d+)/,
    (field, m) => (m[1] === '1' ? t('error.empty', { field }) : t('error.shortest', { field, min: m[1]! })),
  ],
  [/^Too big: expected array to have <=?\s*(\d+)/, (field, m) => t('error.tooMany', { field, max: m[1]! })],
  [/^Invalid email/i, (field) => t('error.email', { field })],
  [/^Invalid (?:url|URL)/, (field) => t('error.url', { field })],
  [
    /^Invalid option: expected one of (.+)$/,
    (field, m) => t('error.choice', { field, choices: m[1]!.replace(/"/g, '').split('|').join(', ') }),
  ],
  [/^must not be empty$/, (field) => t('error.empty', { field })],
  [/^Unknown field\(s\): (.+)$/, (_field, m) => t('error.unknownFields', { fields: m[1]! })],
];

/** One refused field in people's words. */
export function issueInWords(issue: FieldIssue): string {
  const field = fieldName(issue.path);
  for (const [pattern, words] of RULES) {
    const match = pattern.exec(issue.message);
    if (match) return words(field, match);
  }
  // The server's own rules are written for people already ("must be an http or https address").
  return /^(must|is|are) /.test(issue.message) ? `${field} ${issue.message}` : `${field}: ${issue.message}`;
}

/** A refusal that names its fields, in people's words; null when it names none (its message then stands). */
export function refusalInWords(error: ApiError): string | null {
  const issues = Array.isArray(error.details) ? (error.details as FieldIssue[]) : [];
  const named = issues.filter((issue) => typeof issue?.path === 'string' && typeof issue.message === 'string');
  if (named.length === 0) return null;
  return named.map(issueInWords).join(' · ');
}
