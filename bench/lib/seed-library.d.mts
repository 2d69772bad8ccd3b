/** Types of seed-library.mjs for benches written in TypeScript. */
type Call = (method: string, url: string, body?: unknown) => Promise<{ status: number; body: any }>;

export function seedComicLibrary(
  client: { api: string; auth: Record<string, string>; call: Call },
  options: { name?: string; prefix?: string; books: number; timeoutMs?: number },
): Promise<{ libraryId: string; books: Array<{ id: string; seriesId: string; pageCount: number }> }>;
export function createLibrary(call: Call, name: string, prefix: string): Promise<string>;
export function uploadBookFile(
  client: { api: string; auth: Record<string, string> },
  libraryId: string,
  key: string,
  bytes: Uint8Array,
): Promise<void>;
export function listBooks(call: Call, libraryId: string): Promise<any[]>;
