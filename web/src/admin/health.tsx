/** Health (database and storage checks, version) and the server's inventory metrics. */
import { Fragment } from 'preact';
import { apiUrl, get } from '../api/client';
import type { Health, Metrics } from '../api/types';
import { Async, useAsync } from '../components/async';
import { t } from '../i18n';

export function HealthSection() {
  // 503 still carries the health body: read it rather than treat it as a failure.
  const health = useAsync(async (signal) => (await fetch(apiUrl('/health'), { signal })).json() as Promise<Health>, []);
  const metrics = useAsync((signal) => get<Metrics>('/metrics', { signal }), []);
  return (
    <div class="stack">
      <Async state={health}>
        {(value) => (
          <div class="card">
            <h2>
              {t('admin.health')}{' '}
              <span class={value.status === 'ok' ? 'badge badge--ok' : 'badge badge--bad'} data-health={value.status}>
                {value.status}
              </span>
            </h2>
            <p class="muted">{t('admin.version', { version: value.version })}</p>
            <dl class="facts">
              {Object.entries(value.checks).map(([name, check]) => (
                <Fragment key={name}>
                  <dt>{name}</dt>
                  <dd>{JSON.stringify(check)}</dd>
                </Fragment>
              ))}
            </dl>
          </div>
        )}
      </Async>
      <Async state={metrics}>
        {(value) => (
          <div class="card">
            <h2>{t('admin.metrics')}</h2>
            <dl class="facts">
              {Object.entries(value).map(([name, count]) => (
                <Fragment key={name}>
                  <dt>{name}</dt>
                  <dd>{typeof count === 'object' ? JSON.stringify(count) : count.toLocaleString()}</dd>
                </Fragment>
              ))}
            </dl>
          </div>
        )}
      </Async>
    </div>
  );
}
