/**
 * What a user may see (docs/DECISIONS.md §Organise and share): the libraries shared with them, an age
 * restriction and their sharing-tag grants, edited in one form and saved with one `PUT /users/{id}`, so a
 * refused change (an unknown id, access beyond the editor's own) changes nothing.
 */
import { useState } from 'preact/hooks';
import { put } from '../api/client';
import type { Library, SharingTag, User } from '../api/types';
import { ErrorMessage } from '../components/async';
import { t } from '../i18n';

type AgeMode = 'NONE' | 'ALLOW_ONLY' | 'EXCLUDE';
type TagMode = 'none' | 'allow' | 'deny';

/** One line saying what the user sees: "All libraries", "1 library · rated ≤ 12 · 2 tags". */
export function accessSummary(user: User): string {
  const parts = [
    user.sharedAllLibraries
      ? t('admin.allLibraries')
      : user.sharedLibraryIds.length === 0
        ? t('admin.noLibrary')
        : t('admin.librariesCount', { count: user.sharedLibraryIds.length }),
  ];
  const age = user.ageRestriction;
  if (age)
    parts.push(
      age.restriction === 'ALLOW_ONLY' ? t('admin.ageUpTo', { age: age.age }) : t('admin.ageFrom', { age: age.age }),
    );
  if (user.sharingTags.length > 0) parts.push(t('admin.tagsCount', { count: user.sharingTags.length }));
  return parts.join(' · ');
}

export function UserAccessEditor({
  user,
  libraries,
  tags,
  onSaved,
  onCancel,
}: {
  user: User;
  libraries: Library[];
  tags: SharingTag[];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [all, setAll] = useState(user.sharedAllLibraries);
  const [shared, setShared] = useState(new Set(user.sharedLibraryIds));
  const [ageMode, setAgeMode] = useState<AgeMode>(user.ageRestriction?.restriction ?? 'NONE');
  const [age, setAge] = useState(user.ageRestriction?.age ?? 12);
  const [grants, setGrants] = useState(
    new Map<string, TagMode>(user.sharingTags.map((g) => [g.sharingTagId, g.accessMode])),
  );
  const [error, setError] = useState<unknown>(null);

  function toggleLibrary(id: string, on: boolean) {
    const next = new Set(shared);
    if (on) next.add(id);
    else next.delete(id);
    setShared(next);
  }

  /** No library ticked: the user would see nothing at all (issue 31 point 11: saved silently before). */
  const noLibrary = !all && shared.size === 0;

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    if (noLibrary && !confirm(t('admin.noLibraryConfirm', { name: user.username }))) return;
    try {
      await put(`/users/${user.id}`, {
        sharedAllLibraries: all,
        sharedLibraryIds: all ? [] : [...shared],
        ageRestriction: ageMode === 'NONE' ? null : { age, restriction: ageMode },
        sharingTags: [...grants]
          .filter(([, mode]) => mode !== 'none')
          .map(([sharingTagId, accessMode]) => ({ sharingTagId, accessMode })),
      });
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form class="card form" onSubmit={save} aria-label={t('admin.accessOf', { name: user.username })}>
      <h2>{t('admin.accessOf', { name: user.username })}</h2>
      <fieldset class="field">
        <legend class="field__label">{t('admin.libraries')}</legend>
        <div class="checks">
          <label>
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />{' '}
            {t('admin.allLibraries')}
          </label>
          {libraries.map((library) => (
            <label key={library.id}>
              <input
                type="checkbox"
                disabled={all}
                checked={all || shared.has(library.id)}
                onChange={(e) => toggleLibrary(library.id, e.currentTarget.checked)}
              />{' '}
              {library.name}
            </label>
          ))}
        </div>
        {noLibrary && (
          <p class="notice notice--warning" data-no-library>
            {t('admin.noLibraryWarning', { name: user.username })}
          </p>
        )}
      </fieldset>
      <fieldset class="field">
        <legend class="field__label">{t('admin.ageRestriction')}</legend>
        <p class="field__hint">{t('admin.ageHint')}</p>
        <div class="toolbar">
          <select
            class="select"
            aria-label={t('admin.ageRestriction')}
            value={ageMode}
            onChange={(e) => setAgeMode(e.currentTarget.value as AgeMode)}
          >
            <option value="NONE">{t('admin.ageNone')}</option>
            <option value="ALLOW_ONLY">{t('admin.ageAllowOnly')}</option>
            <option value="EXCLUDE">{t('admin.ageExclude')}</option>
          </select>
          {ageMode !== 'NONE' && (
            <input
              class="field__input field__input--narrow"
              type="number"
              min={0}
              max={255}
              aria-label={t('admin.age')}
              value={age}
              onInput={(e) => setAge(Number(e.currentTarget.value))}
            />
          )}
        </div>
      </fieldset>
      {tags.length > 0 && (
        <fieldset class="field">
          <legend class="field__label">{t('admin.sharingTags')}</legend>
          <p class="field__hint">{t('admin.sharingTagsHint')}</p>
          <div class="checks">
            {tags.map((tag) => (
              <label key={tag.id}>
                <select
                  class="select select--small"
                  aria-label={tag.name}
                  value={grants.get(tag.id) ?? 'none'}
                  onChange={(e) => setGrants(new Map(grants).set(tag.id, e.currentTarget.value as TagMode))}
                >
                  <option value="none">{t('admin.tagNone')}</option>
                  <option value="allow">{t('admin.tagAllow')}</option>
                  <option value="deny">{t('admin.tagDeny')}</option>
                </select>{' '}
                {tag.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <ErrorMessage error={error} />
      <div class="toolbar">
        <button type="submit" class="button button--primary">
          {t('app.save')}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          {t('app.cancel')}
        </button>
      </div>
    </form>
  );
}
