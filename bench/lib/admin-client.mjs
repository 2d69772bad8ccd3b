// The first admin of a fresh benchmark server, and a JSON caller signed in as them: what every
// benchmark that drives the API as a user does first.
export const BENCH_ADMIN = { username: 'bench-admin', email: 'bench@example.com', password: 'bench-password-42' };

/** POST /setup/initialize on `api` (…/api/v1); returns the admin's Authorization header and `call`. */
export async function setupAdminClient(api) {
  const setup = await fetch(`${api}/setup/initialize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (setup.status !== 201) throw new Error(`setup failed: ${setup.status} ${await setup.text()}`);
  const auth = { Authorization: `Bearer ${(await setup.json()).access_token}` };
  /** A JSON request as the admin: `{status, body}` with the body parsed. */
  const call = async (method, url, body) => {
    const res = await fetch(`${api}${url}`, {
      method,
      headers: { ...auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { auth, call };
}
