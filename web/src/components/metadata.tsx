/**
 * A series' or book's metadata as the detail pages show it (issue 18): credits by role, genres, tags and
 * characters — each a link to the series grid filtered by it — and web links; and the Edit dialog (for
 * users with SeriesWrite/BooksWrite) with a lock beside each field and cover upload. Saving PATCHes the
 * changed fields (which locks them) and PUTs the locks toggled by hand; the page then updates from the
 * live `series_updated`/`book_updated` event, without a reload. A series' age rating is in the dialog only
 * for users who may set it (UsersWrite: it decides who sees the series); left empty, the books rate it.
 */
import { useState } from 'preact/hooks';
import { patch, post, put, del } from '../api/client';
import type { BookMetadata, SeriesMetadata } from '../api/types';
import { type MessageKey, t } from '../i18n';
import { currentUser } from '../state/session';
import { ErrorMessage } from './async';

type Metadata = SeriesMetadata | BookMetadata;
type Kind = 'series' | 'books';

const ROLES = ['writer', 'penciller', 'inker', 'colorist', 'letterer', 'cover', 'editor', 'translator'];
const roleLabel = (role: string) =>
  ROLES.includes(role) ? t(`metadata.role.${role}` as MessageKey) : role.charAt(0).toUpperCase() + role.slice(1);

/** The series grid of every library filtered by one field (author, genre, tag, character). */
const filtered = (field: string, value: string) => `/libraries/all?${field}=${encodeURIComponent(value)}`;

function Terms({ label, field, values }: { label: string; field: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd class="chips">
        {values.map((value) => (
          <a key={value} class="chip" href={filtered(field, value)}>
            {value}
          </a>
        ))}
      </dd>
    </>
  );
}

/**
 * Links a person may follow: http and https only. The server refuses others at every write and drops them
 * at every scan; a link stored before that rule must not become a `javascript:` href in the app either.
 */
function followable(links: Metadata['links']): Metadata['links'] {
  return links.filter((link) => /^https?:\/\//i.test(link.url) && URL.canParse(link.url));
}

export function MetadataFacts({ metadata }: { metadata: Metadata }) {
  const webLinks = followable(metadata.links);
  const byRole = new Map<string, string[]>();
  for (const { name, role } of metadata.authors) byRole.set(role, [...(byRole.get(role) ?? []), name]);
  return (
    <dl class="facts" data-metadata>
      {[...byRole].map(([role, names]) => (
        <>
          <dt key={`${role}-label`}>{roleLabel(role)}</dt>
          <dd key={role} class="chips">
            {names.map((name) => (
              <a key={name} class="chip" href={filtered('author', name)}>
                {name}
              </a>
            ))}
          </dd>
        </>
      ))}
      <Terms label={t('metadata.genres')} field="genre" values={metadata.genres} />
      <Terms label={t('metadata.tags')} field="tag" values={metadata.tags} />
      <Terms label={t('metadata.characters')} field="character" values={metadata.characters} />
      {webLinks.length > 0 && (
        <>
          <dt>{t('metadata.links')}</dt>
          <dd class="chips">
            {webLinks.map((link) => (
              <a key={link.url} class="chip" href={link.url} rel="noopener noreferrer" target="_blank">
                {link.label || new URL(link.url).hostname}
              </a>
            ))}
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * Whether the signed-in user may edit: maintainers and admins hold SeriesWrite and BooksWrite by their role
 * (a reader given them as custom permissions edits through the API; the server decides either way).
 */
export function canEdit(_kind: Kind): boolean {
  const role = currentUser.value?.role;
  return role === 'maintainer' || role === 'admin';
}

const FIELDS = ['title', 'summary', 'publisher', 'year', 'genres', 'tags'] as const;
type Field = (typeof FIELDS)[number] | 'ageRating';
const NUMERIC: readonly Field[] = ['year', 'ageRating'];

const asText = (metadata: Metadata, field: Field): string => {
  const value = (metadata as Record<Field, unknown>)[field];
  return Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value);
};

function parsed(field: Field, text: string): unknown {
  if (field === 'genres' || field === 'tags')
    return text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (NUMERIC.includes(field)) {
    if (text.trim() === '') return null;
    // Not a number ("16+", "R"): sent as typed, so the server answers 400 naming the field. Number() would be
    // NaN, which JSON sends as null: for an age rating, "unlock and rate from the books".
    const number = Number(text);
    return Number.isFinite(number) ? number : text.trim();
  }
  if (field === 'title') return text.trim();
  return text.trim() === '' ? null : text;
}

/** The lock a field has after an edit sets it: locked, except a cleared age rating (the books rate the series). */
const lockedByEdit = (field: Field, text: string) => field !== 'ageRating' || text.trim() !== '';

export function EditMetadataDialog({
  kind,
  id,
  metadata,
  rates = false,
  onClose,
}: {
  kind: Kind;
  id: string;
  metadata: Metadata;
  /** The user may set the series' age rating (UsersWrite in /auth/me's effectivePermissions). */
  rates?: boolean;
  onClose: () => void;
}) {
  const fields: readonly Field[] = kind === 'series' && rates ? [...FIELDS, 'ageRating'] : FIELDS;
  const storedLock = (field: Field) => Boolean((metadata.locks as Record<Field, boolean | undefined>)[field]);
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f, asText(metadata, f)])));
  const [locks, setLocks] = useState<Record<Field, boolean>>(
    () => Object.fromEntries(fields.map((f) => [f, storedLock(f)])) as Record<Field, boolean>,
  );
  const [cover, setCover] = useState<File | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  /** Typing in a field ticks its lock, as the edit will lock it (untick to save it unlocked). */
  function edit(field: Field, text: string) {
    setValues({ ...values, [field]: text });
    setLocks({ ...locks, [field]: lockedByEdit(field, text) });
  }

  async function save(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const changed = fields.filter((f) => values[f] !== asText(metadata, f));
      if (changed.length > 0) {
        await patch(`/${kind}/${id}/metadata`, Object.fromEntries(changed.map((f) => [f, parsed(f, values[f] ?? '')])));
      }
      // Locks toggled by hand: an edit locks its field, so only differences from that are sent.
      const toggled = fields.filter(
        (f) => locks[f] !== (changed.includes(f) ? lockedByEdit(f, values[f] ?? '') : storedLock(f)),
      );
      if (toggled.length > 0)
        await put(`/${kind}/${id}/metadata/locks`, Object.fromEntries(toggled.map((f) => [f, locks[f]])));
      if (cover) {
        const form = new FormData();
        form.append('file', cover);
        await post(`/${kind}/${id}/cover`, undefined, { raw: form });
      }
      onClose();
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
    }
  }

  async function resetCover() {
    setError(null);
    try {
      await del(`/${kind}/${id}/covers/selected`);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <dialog open class="dialog" aria-labelledby="edit-metadata-title" data-edit-metadata>
      <form onSubmit={(event) => void save(event)} class="dialog__body">
        <h2 id="edit-metadata-title">{t('metadata.editTitle')}</h2>
        <p class="muted">{t('metadata.lockHint')}</p>
        {fields.map((field) => (
          <div class="field field--locked" key={field}>
            <label class="field__label" for={`metadata-${field}`}>
              {t(`metadata.${field}` as MessageKey)}
            </label>
            {field === 'summary' ? (
              <textarea
                id={`metadata-${field}`}
                name={field}
                rows={5}
                value={values[field] ?? ''}
                onInput={(e) => edit(field, e.currentTarget.value)}
              />
            ) : (
              <input
                id={`metadata-${field}`}
                name={field}
                type="text"
                inputMode={NUMERIC.includes(field) ? 'numeric' : undefined}
                value={values[field] ?? ''}
                placeholder={
                  field === 'genres' || field === 'tags'
                    ? t('metadata.listHint')
                    : field === 'ageRating'
                      ? t('metadata.ageRatingHint')
                      : undefined
                }
                onInput={(e) => edit(field, e.currentTarget.value)}
              />
            )}
            <label class="lock">
              <input
                type="checkbox"
                name={`${field}Lock`}
                checked={locks[field]}
                onChange={(e) => setLocks({ ...locks, [field]: e.currentTarget.checked })}
              />
              {t('metadata.lock')}
            </label>
          </div>
        ))}
        <div class="field">
          <label class="field__label" for="metadata-cover">
            {t('metadata.cover')}
          </label>
          <input
            id="metadata-cover"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={(e) => setCover(e.currentTarget.files?.[0] ?? null)}
          />
          <button type="button" class="button" onClick={() => void resetCover()}>
            {t('metadata.resetCover')}
          </button>
        </div>
        <ErrorMessage error={error} />
        <div class="toolbar">
          <button type="submit" class="button button--primary" disabled={saving}>
            {t('metadata.save')}
          </button>
          <button type="button" class="button" onClick={onClose}>
            {t('metadata.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
