/** Starting a scan through the API and waiting for the library's Durable Object to finish it. */
import { api, type Credentials } from './http';

export async function createLibrary(auth: Credentials, body: Record<string, unknown> = {}): Promise<string> {
  const res = await api('/libraries', { auth, json: { name: 'Comics', path: 'comics', ...body } });
  if (res.status !== 201) throw new Error(`create library failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function waitForScan(auth: Credentials, libraryId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await api(`/libraries/${libraryId}/scan-status`, { auth });
    if (status.body.status !== 'running') return status.body;
    if (Date.now() > deadline) throw new Error(`scan still running: ${status.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function scan(auth: Credentials, libraryId: string, mode: 'normal' | 'deep' = 'normal') {
  const started = await api(`/libraries/${libraryId}/scan?mode=${mode}`, { method: 'POST', auth });
  if (started.status !== 202) throw new Error(`scan start failed: ${started.status} ${started.text}`);
  return waitForScan(auth, libraryId);
}
