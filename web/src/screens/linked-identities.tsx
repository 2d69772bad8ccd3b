/** The account's linked sign-ins (GET /user/identities): which providers vouch for it, each unlinkable. */
import { useState } from 'preact/hooks';
import { del, get } from '../api/client';
import type { LinkedIdentity } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { t } from '../i18n';
import { formatDate } from '../i18n/format';

export function LinkedIdentities() {
  const identities = useAsync((signal) => get<LinkedIdentity[]>('/user/identities', { signal }), []);
  const [error, setError] = useState<unknown>(null);

  async function unlink(identity: LinkedIdentity) {
    if (!confirm(t('account.confirmUnlink', { name: identity.providerName }))) return;
    setError(null);
    try {
      await del(`/user/identities/${identity.id}`);
      identities.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <section class="card form narrow" data-linked-identities>
      <h2>{t('account.signIns')}</h2>
      <Async state={identities}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">{t('account.noIdentities')}</p>
          ) : (
            <ul class="stack identities">
              {list.map((identity) => (
                <li key={identity.id} class="toolbar">
                  <span>
                    <strong>{identity.providerName}</strong> · {identity.email ?? identity.subject}
                    {identity.lastLoginAt &&
                      ` · ${t('account.lastSignIn', { date: formatDate(identity.lastLoginAt) })}`}
                  </span>
                  <button
                    type="button"
                    class="button button--small"
                    aria-label={t('account.unlinkNamed', { name: identity.providerName })}
                    onClick={() => void unlink(identity)}
                  >
                    {t('account.unlink')}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Async>
      <ErrorMessage error={error} />
    </section>
  );
}
