/**
 * A series' or book's metadata as the detail pages show it (issue 18): credits by role, genres, tags and
 * characters — each a link to the series grid filtered by it — and web links; and the Edit dialog (for
 * users with SeriesWrite/BooksWrite) with a lock beside each field and cover upload. Saving PATCHes the
 * changed fields (which locks them) and PUTs the locks toggled by hand; the page then updates from the
 * live `series_updated`/`book_updated` event, without a reload. A series' age rating is in the dialog only
 * for users who may set it (UsersWrite: it decides who sees the series); left empty, the books rate it.
 */
import type { ComponentChildren } from 'preact';
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

/** How a field is edited: a line of text, a paragraph, a number, a comma-separated list or a choice. */
type FieldKind = 'text' | 'paragraph' | 'number' | 'list' | 'choice';
interface FieldSpec {
  name: Field;
  kind: FieldKind;
  /** For a choice: its values (the empty choice, "not set", comes first). */
  choices?: readonly string[];
  /** The catalogue key of a choice's label: `<prefix>.<value>`. */
  choiceLabels?: string;
}

type Field =
  | 'title'
  | 'titleSort'
  | 'summary'
  | 'publisher'
  | 'year'
  | 'month'
  | 'day'
  | 'language'
  | 'status'
  | 'readingDirection'
  | 'number'
  | 'isbn'
  | 'genres'
  | 'tags'
  | 'ageRating';

/**
 * What the dialogs edit (issue 31 point 10: what Komga users edit most): for a series its sort title,
 * reading direction, status and language besides the common fields; for a book its number, release date
 * and ISBN, and (below the fields) its credits and links.
 */
const SERIES_SPECS: readonly FieldSpec[] = [
  { name: 'title', kind: 'text' },
  { name: 'titleSort', kind: 'text' },
  { name: 'summary', kind: 'paragraph' },
  { name: 'readingDirection', kind: 'choice', choices: ['ltr', 'rtl', 'ttb', 'webtoon'], choiceLabels: 'direction' },
  { name: 'status', kind: 'choice', choices: ['ongoing', 'ended', 'hiatus', 'abandoned'], choiceLabels: 'status' },
  { name: 'publisher', kind: 'text' },
  { name: 'year', kind: 'number' },
  { name: 'language', kind: 'text' },
  { name: 'genres', kind: 'list' },
  { name: 'tags', kind: 'list' },
];
const BOOK_SPECS: readonly FieldSpec[] = [
  { name: 'title', kind: 'text' },
  { name: 'number', kind: 'number' },
  { name: 'summary', kind: 'paragraph' },
  { name: 'year', kind: 'number' },
  { name: 'month', kind: 'number' },
  { name: 'day', kind: 'number' },
  { name: 'publisher', kind: 'text' },
  { name: 'isbn', kind: 'text' },
  { name: 'genres', kind: 'list' },
  { name: 'tags', kind: 'list' },
];
const AGE_RATING: FieldSpec = { name: 'ageRating', kind: 'number' };

const asText = (metadata: Metadata, field: Field): string => {
  const value = (metadata as unknown as Record<Field, unknown>)[field];
  return Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value);
};

function parsed(spec: FieldSpec, text: string): unknown {
  if (spec.kind === 'list')
    return text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (spec.kind === 'number') {
    if (text.trim() === '') return null;
    // Not a number ("16+", "R"): sent as typed, so the server answers 400 naming the field. Number() would be
    // NaN, which JSON sends as null: for an age rating, "unlock and rate from the books".
    const number = Number(text);
    return Number.isFinite(number) ? number : text.trim();
  }
  if (spec.name === 'title' || spec.name === 'titleSort') return text.trim();
  return text.trim() === '' ? null : text;
}

/** The lock a field has after an edit sets it: locked, except a cleared age rating (the books rate the series). */
const lockedByEdit = (field: Field | ListField, text: string) => field !== 'ageRating' || text.trim() !== '';

/** The fields edited as rows (a book's credits and links), each with its lock. */
type ListField = 'authors' | 'links';
type Credit = { name: string; role: string };
type WebLink = { label: string; url: string };

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
  const specs: readonly FieldSpec[] =
    kind === 'series' ? (rates ? [...SERIES_SPECS, AGE_RATING] : SERIES_SPECS) : BOOK_SPECS;
  const fields = specs.map((spec) => spec.name);
  const rows: readonly ListField[] = kind === 'books' ? ['authors', 'links'] : [];
  const storedLock = (field: Field | ListField) =>
    Boolean((metadata.locks as Record<string, boolean | undefined>)[field]);
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f, asText(metadata, f)])));
  const [locks, setLocks] = useState<Record<string, boolean>>(() =>
    Object.fromEntries([...fields, ...rows].map((f) => [f, storedLock(f)])),
  );
  const [credits, setCredits] = useState<Credit[]>(() => metadata.authors.map(({ name, role }) => ({ name, role })));
  const [links, setLinks] = useState<WebLink[]>(() => metadata.links.map(({ label, url }) => ({ label, url })));
  const [cover, setCover] = useState<File | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  /** Typing in a field ticks its lock, as the edit will lock it (untick to save it unlocked). */
  function edit(field: Field, text: string) {
    setValues({ ...values, [field]: text });
    setLocks({ ...locks, [field]: lockedByEdit(field, text) });
  }
  function editCredits(next: Credit[]) {
    setCredits(next);
    setLocks({ ...locks, authors: true });
  }
  function editLinks(next: WebLink[]) {
    setLinks(next);
    setLocks({ ...locks, links: true });
  }

  const rowsValue = (field: ListField) =>
    field === 'authors'
      ? credits.filter((credit) => credit.name.trim()).map((c) => ({ name: c.name.trim(), role: c.role }))
      : links.filter((link) => link.url.trim()).map((l) => ({ label: l.label.trim(), url: l.url.trim() }));
  const rowsStored = (field: ListField) =>
    field === 'authors'
      ? metadata.authors.map(({ name, role }) => ({ name, role }))
      : metadata.links.map(({ label, url }) => ({ label, url }));

  async function save(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const changed = specs.filter((spec) => values[spec.name] !== asText(metadata, spec.name));
      const changedRows = rows.filter((f) => JSON.stringify(rowsValue(f)) !== JSON.stringify(rowsStored(f)));
      const body = {
        ...Object.fromEntries(changed.map((spec) => [spec.name, parsed(spec, values[spec.name] ?? '')])),
        ...Object.fromEntries(changedRows.map((f) => [f, rowsValue(f)])),
      };
      if (Object.keys(body).length > 0) await patch(`/${kind}/${id}/metadata`, body);
      // Locks toggled by hand: an edit locks its field, so only differences from that are sent.
      const edited = new Set<string>([...changed.map((spec) => spec.name), ...changedRows]);
      const toggled = [...fields, ...rows].filter(
        (f) => locks[f] !== (edited.has(f) ? lockedByEdit(f, values[f] ?? '') : storedLock(f)),
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

  const lockBox = (field: Field | ListField) => (
    <label class="lock">
      <input
        type="checkbox"
        name={`${field}Lock`}
        checked={locks[field]}
        onChange={(e) => setLocks({ ...locks, [field]: e.currentTarget.checked })}
      />
      {t('metadata.lock')}
    </label>
  );

  return (
    <dialog open class="dialog" aria-labelledby="edit-metadata-title" data-edit-metadata>
      <form onSubmit={(event) => void save(event)} class="dialog__body">
        <h2 id="edit-metadata-title">{t('metadata.editTitle')}</h2>
        <p class="muted">{t('metadata.lockHint')}</p>
        {specs.map((spec) => (
          <div class="field field--locked" key={spec.name}>
            <label class="field__label" for={`metadata-${spec.name}`}>
              {t(`metadata.${spec.name}` as MessageKey)}
            </label>
            <FieldInput spec={spec} value={values[spec.name] ?? ''} onInput={(text) => edit(spec.name, text)} />
            {lockBox(spec.name)}
          </div>
        ))}
        {rows.includes('authors') && (
          <RowsField
            marker="credits"
            legend={t('metadata.credits')}
            rows={credits}
            onChange={editCredits}
            blank={{ name: '', role: 'writer' }}
            addLabel={t('metadata.addCredit')}
            removeLabel={(credit, index) => t('metadata.removeCredit', { name: credit.name || String(index + 1) })}
            lock={lockBox('authors')}
          >
            {(credit, index, update) => (
              <>
                <input
                  class="field__input"
                  aria-label={t('metadata.creditName', { number: index + 1 })}
                  value={credit.name}
                  onInput={(e) => update({ name: e.currentTarget.value })}
                />
                <select
                  class="select"
                  aria-label={t('metadata.creditRole', { number: index + 1 })}
                  value={credit.role}
                  onChange={(e) => update({ role: e.currentTarget.value })}
                >
                  {[...new Set([...ROLES, credit.role])].map((role) => (
                    <option key={role} value={role}>
                      {roleLabel(role)}
                    </option>
                  ))}
                </select>
              </>
            )}
          </RowsField>
        )}
        {rows.includes('links') && (
          <RowsField
            marker="links"
            legend={t('metadata.links')}
            rows={links}
            onChange={editLinks}
            blank={{ label: '', url: '' }}
            addLabel={t('metadata.addLink')}
            removeLabel={(_, index) => t('metadata.removeLink', { number: index + 1 })}
            lock={lockBox('links')}
          >
            {(link, index, update) => (
              <>
                <input
                  class="field__input"
                  aria-label={t('metadata.linkLabel', { number: index + 1 })}
                  placeholder={t('metadata.linkLabelHint')}
                  value={link.label}
                  onInput={(e) => update({ label: e.currentTarget.value })}
                />
                <input
                  class="field__input"
                  type="url"
                  inputMode="url"
                  aria-label={t('metadata.linkUrl', { number: index + 1 })}
                  placeholder="https://"
                  value={link.url}
                  onInput={(e) => update({ url: e.currentTarget.value })}
                />
              </>
            )}
          </RowsField>
        )}
        <div class="field">
          <label class="field__label" for="metadata-cover">
            {t('metadata.cover')}
          </label>
          <input
            id="metadata-cover"
            class="field__input"
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

/**
 * A field edited as rows (a book's credits, its links): each row's controls (`children`) with a button that
 * removes the row, then a button that adds an empty one and the field's lock.
 */
function RowsField<Row>({
  marker,
  legend,
  rows,
  onChange,
  blank,
  addLabel,
  removeLabel,
  lock,
  children,
}: {
  /** Names the fieldset for the page's scripts and tests: `data-credits`, `data-links`. */
  marker: 'credits' | 'links';
  legend: string;
  rows: Row[];
  onChange: (next: Row[]) => void;
  blank: Row;
  addLabel: string;
  removeLabel: (row: Row, index: number) => string;
  lock: ComponentChildren;
  children: (row: Row, index: number, update: (changes: Partial<Row>) => void) => ComponentChildren;
}) {
  return (
    <fieldset class="field rows-field" {...{ [`data-${marker}`]: true }}>
      <legend class="field__label">{legend}</legend>
      {rows.map((row, index) => (
        <div class="rows-field__row" key={index}>
          {children(row, index, (changes) => onChange(rows.map((r, i) => (i === index ? { ...r, ...changes } : r))))}
          <button
            type="button"
            class="button button--small"
            aria-label={removeLabel(row, index)}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <div class="toolbar">
        <button type="button" class="button button--small" onClick={() => onChange([...rows, blank])}>
          {addLabel}
        </button>
        {lock}
      </div>
    </fieldset>
  );
}

/** One field's control, named as the field (tests and password managers find it by name). */
function FieldInput({ spec, value, onInput }: { spec: FieldSpec; value: string; onInput: (text: string) => void }) {
  const id = `metadata-${spec.name}`;
  if (spec.kind === 'paragraph') {
    return (
      <textarea
        id={id}
        class="field__input"
        name={spec.name}
        rows={5}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }
  if (spec.kind === 'choice') {
    return (
      <select id={id} class="select" name={spec.name} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">{t('metadata.notSet')}</option>
        {(spec.choices ?? []).map((choice) => (
          <option key={choice} value={choice}>
            {t(`${spec.choiceLabels}.${choice}` as MessageKey)}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      id={id}
      class="field__input"
      name={spec.name}
      type="text"
      inputMode={spec.kind === 'number' ? 'numeric' : undefined}
      value={value}
      placeholder={
        spec.kind === 'list'
          ? t('metadata.listHint')
          : spec.name === 'ageRating'
            ? t('metadata.ageRatingHint')
            : undefined
      }
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  );
}
