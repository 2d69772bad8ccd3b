/** POST /series/list and /books/list as the filter tests send them (API.md §4 Advanced filtering). */
import { api, type Credentials, expectError } from './http';

export type Condition = Record<string, unknown>;
export type FilterResource = 'series' | 'books';

export const leaf = (field: string, operator: string, value?: unknown): Condition => ({
  [field]: value === undefined ? { operator } : { operator, value },
});

/** The titles a filter body matches, sorted. */
export async function matching(auth: Credentials, resource: FilterResource, body: Record<string, unknown>) {
  const res = await api(`/${resource}/list?pageSize=100`, { auth, json: body });
  if (res.status !== 200) throw new Error(`${resource} filter failed: ${res.status} ${res.text}`);
  return (res.body.data as Array<{ title: string }>).map((item) => item.title).sort();
}

/** The 400 a condition gets (the error envelope, checked). */
export async function rejection(auth: Credentials, resource: FilterResource, condition: unknown) {
  return expectError(await api(`/${resource}/list`, { auth, json: { condition } }), 400, 'BadRequest');
}
