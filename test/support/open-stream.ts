/** An open SSE connection into the worker (cloudflare:test SELF) that collects its text as it arrives. */
import { SELF } from 'cloudflare:test';
import { authHeaders, type Credentials } from './http';

export interface OpenStream {
  /** The stream's response (status and headers; its body is being read). */
  response: Response;
  /** Everything received so far. */
  text(): string;
  /** Waits until the text contains `needle`. */
  waitFor(needle: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openStream(
  path: string,
  auth: Credentials,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const response = await SELF.fetch(`http://longbox.test${path}`, {
    headers: { Accept: 'text/event-stream', ...authHeaders(auth), ...headers },
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return {
    response,
    text: () => text,
    async waitFor(needle, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`${path}: no ${needle} in:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}
