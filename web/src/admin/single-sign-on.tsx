/**
 * Which single-sign-on providers this deployment configures (GET /admin/sso): names, issuers and the
 * redirect URI to register at each, never a secret. They are set by variables, not here (README
 * "Single sign-on").
 */
import { get } from '../api/client';
import type { SsoConfiguration } from '../api/types';
import { Async, useAsync } from '../components/async';
import { t } from '../i18n';

export function SingleSignOnSummary() {
  const configuration = useAsync((signal) => get<SsoConfiguration>('/admin/sso', { signal }), []);
  return (
    <section class="card stack" data-sso-configuration>
      <h2>{t('admin.sso')}</h2>
      <Async state={configuration}>
        {(sso) => (
          <>
            <p>{t(sso.passwordLogin ? 'admin.ssoPasswordEveryone' : 'admin.ssoPasswordAdmins')}</p>
            {sso.oidc.providers.length === 0 && <p class="muted">{t('admin.ssoNoProviders')}</p>}
            {sso.oidc.providers.map((provider) => (
              <div key={provider.name} data-provider={provider.name}>
                <h3>
                  {provider.displayName} <code>{provider.name}</code>
                </h3>
                <dl class="facts">
                  <dt>{t('admin.ssoIssuer')}</dt>
                  <dd>{provider.issuer}</dd>
                  <dt>{t('admin.ssoCallback')}</dt>
                  <dd>
                    <code>{provider.callbackUrl}</code>
                  </dd>
                  <dt>{t('admin.ssoScopes')}</dt>
                  <dd>{provider.scopes.join(' ')}</dd>
                  <dt>{t('admin.ssoCreates')}</dt>
                  <dd>{t(provider.autoCreateUsers ? 'app.yes' : 'app.no')}</dd>
                  <dt>{t('admin.ssoDefaultRole')}</dt>
                  <dd>{provider.defaultRole}</dd>
                  <dt>{t('admin.ssoGroups', { claim: provider.groupsClaim })}</dt>
                  <dd>
                    {provider.groupMapping.length === 0
                      ? t('app.none')
                      : provider.groupMapping.map((rule) => `${rule.group} → ${rule.target}`).join(', ')}
                  </dd>
                </dl>
              </div>
            ))}
            {sso.cloudflareAccess && <p>{t('admin.ssoAccess', { team: sso.cloudflareAccess.teamDomain })}</p>}
          </>
        )}
      </Async>
    </section>
  );
}
