/**
 * Requests the early-start script (src/early-start/early-start.js) started before the app's scripts
 * arrived (a book opened by address: its record and page list). `request` takes one instead of fetching the same URL again; each
 * is used once, so a later load of the same URL asks the server afresh.
 */
declare global {
  interface Window {
    __longboxStarted?: Record<string, Promise<Response>>;
  }
}

export function takeStartedRequest(url: string): Promise<Response> | undefined {
  const started = window.__longboxStarted;
  const response = started?.[url];
  if (started && response) delete started[url];
  return response;
}
