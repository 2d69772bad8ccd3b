/** Sharing tags: create, list with the series and users each concerns, delete (docs/DECISIONS.md §Organise and share). */
import { del, get, post } from '../api/client';
import type { Page, SharingTag } from '../api/types';
import { AsyncAdminTable } from '../components/admin-table';
import { ErrorMessage, useAsync } from '../components/async';
import { Field } from '../components/field';
import { useReloadingAction } from '../components/reloading-action';
import { t } from '../i18n';

export function SharingTagsSection() {
  const tags = useAsync(
    (signal) => get<Page<SharingTag>>('/admin/sharing-tags', { query: { pageSize: 500 }, signal }),
    [],
  );
  const { error, act } = useReloadingAction(tags.reload);

  async function create(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const description = String(form.get('description') ?? '').trim();
    await act(async () => {
      await post('/admin/sharing-tags', { name: String(form.get('name')), ...(description ? { description } : {}) });
      formElement.reset();
    });
  }

  return (
    <div class="stack">
      <form class="card form" onSubmit={create} aria-label={t('admin.newTag')}>
        <h2>{t('admin.newTag')}</h2>
        <p class="field__hint">{t('admin.sharingTagsHint')}</p>
        <Field label={t('admin.tagName')} name="name" required maxLength={100} />
        <Field label={t('admin.tagDescription')} name="description" maxLength={1000} />
        <button type="submit" class="button button--primary">
          {t('app.create')}
        </button>
      </form>
      <ErrorMessage error={error} />
      {tags.data?.total === 0 && <p class="muted">{t('admin.noTags')}</p>}
      <AsyncAdminTable
        state={tags}
        items={(page) => page.data}
        columns={[t('admin.tagName'), t('admin.tagDescription'), t('admin.tagSeries'), t('admin.tagUsers')]}
      >
        {(tag) => (
          <tr key={tag.id}>
            <td>{tag.name}</td>
            <td>{tag.description ?? '—'}</td>
            <td>{tag.seriesCount}</td>
            <td>{tag.userCount}</td>
            <td>
              <button
                type="button"
                class="button button--small button--danger"
                onClick={() => {
                  if (confirm(t('admin.confirmDeleteTag', { name: tag.name })))
                    void act(() => del(`/admin/sharing-tags/${tag.id}`));
                }}
              >
                {t('app.delete')}
              </button>
            </td>
          </tr>
        )}
      </AsyncAdminTable>
    </div>
  );
}
