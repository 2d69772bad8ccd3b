/**
 * The one Node module the far-readers entry uses (workerd's `nodejs_als` flag provides it, and nothing else of
 * Node): declared here because the workers' type-check has no Node types.
 */
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
