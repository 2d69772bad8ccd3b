/** Loading data for a screen: `useAsync` runs a request when its inputs change; `<Async>` shows its states. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { refusalInWords } from '../api/error-words';
import { t } from '../i18n';

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Runs the request again (after a change, or from the error's retry button). */
  reload(): void;
  /** Replaces the data locally (after a mutation or a live event). */
  set(data: T): void;
}

export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, inputs: unknown[]): AsyncState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef
      .current(controller.signal)
      .then((value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      })
      .catch((failure: Error) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      });
    return () => controller.abort();
  }, [...inputs, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload, set: setData };
}

/** What a screen says about a failure: in people's words where the API named the refused fields. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'NetworkError') return t('app.networkError');
  if (error instanceof ApiError) return refusalInWords(error) ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <span>{errorText(error)}</span>
      {onRetry && (
        <button type="button" class="button button--small" onClick={onRetry}>
          {t('app.retry')}
        </button>
      )}
    </div>
  );
}

/** Renders `children(data)` once loaded; a reserved-height placeholder before, so nothing jumps. */
export function Async<T>({
  state,
  children,
  placeholder,
}: {
  state: AsyncState<T>;
  children: (data: T) => ComponentChildren;
  placeholder?: ComponentChildren;
}) {
  if (state.data !== undefined) return <>{children(state.data)}</>;
  if (state.error) return <ErrorMessage error={state.error} onRetry={state.reload} />;
  return (
    <>
      {placeholder ?? (
        <p class="muted" aria-busy="true">
          {t('app.loading')}
        </p>
      )}
    </>
  );
}
