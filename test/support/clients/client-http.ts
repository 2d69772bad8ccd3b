/**
 * How the Komga clients put requests on the wire, transcribed from their HTTP stacks, so a replayed session
 * sends the bytes the real client sends (not what Longbox would like to receive):
 *
 * - Komf and Komelia talk through Snd-R/komga-client (Ktor + kotlinx.serialization). Query values are encoded
 *   by Ktor's `encodeURLParameterValue` (A–Z a–z 0–9 `-._~` kept, space → `+`, everything else `%XX`; so a
 *   comma is `%2C`), multipart bodies are Ktor's `MultiPartFormDataContent`, and `expectSuccess = true` turns
 *   any status ≥ 300 into an exception (`ClientRequestException`), which the callers sometimes catch (404 → null).
 * - Mihon's extension and tracker use OkHttp: `HttpUrl.Builder.addQueryParameter` encodes with
 *   `QUERY_COMPONENT_ENCODE_SET` (space → `%20`, comma → `%2C`).
 *
 * Every module under test/support/clients cites the upstream repository, commit and file of what it transcribes;
 * `UPSTREAM` below pins the commits read.
 */
import type { z } from 'zod';

/** The commits the transcriptions were read at (newest stored snapshot of each repository, 2026-08). */
export const UPSTREAM = {
  /** Komga 1.26.3: controllers and DTOs, `komga/docs/openapi.json`. */
  komga: { repo: 'gotson/komga', commit: 'cba53ed3750fcc7b333293e093a6bfaa6afa3a26' },
  /** komga-client 0.9.0, the version Komf pins (`gradle/libs.versions.toml`: komga-client = "0.9.0"). */
  komgaClientForKomf: { repo: 'Snd-R/komga-client', commit: 'd215550ccc12f26b3b2df06e5d6238947c199c0d' },
  /**
   * komga-client 0.10.2 (tag = HEAD of the snapshot). Komelia pins 0.10.3, which the snapshot does not hold;
   * 0.10.2 is the newest published code read.
   */
  komgaClient: { repo: 'Snd-R/komga-client', commit: '597c491fbebf45bb672023a0918e7e4309ee0ced' },
  komelia: { repo: 'Snd-R/Komelia', commit: '0b6bf5b1aad791dc181106557668d492c212d57c' },
  komf: { repo: 'Snd-R/komf', commit: '5d0f689dc9832056e669e60f41dd8f01d7b275fe' },
  mihonExtension: { repo: 'keiyoushi/extensions-source', commit: 'fd4236e034ea55f9df1799bf34b7c713f1a46780' },
  mihon: { repo: 'mihonapp/mihon', commit: 'a2c24ff0429ad2502b612c9ab1f2b09966629f73' },
  codex: { repo: 'AshDevFr/codex', commit: 'e1fd1aa6a81cdf86a0e4b0a0f6438d731e3f7744' },
  /** Ktor's multipart writer (read from the code index, not a pinned snapshot). */
  ktor: { repo: 'ktorio/ktor', commit: '4cd965349caa45c320619f2d147191dea6cf5d2d' },
} as const;

export type Upstream = keyof typeof UPSTREAM;

/** One upstream file (optionally a symbol in it) a transcription was read from. */
export interface SourceRef {
  upstream: Upstream;
  path: string;
  symbol?: string;
}

export const ref = (upstream: Upstream, path: string, symbol?: string): SourceRef =>
  symbol ? { upstream, path, symbol } : { upstream, path };

/** `owner/name@commit:path#symbol`, for test messages and docs. */
export function cite(source: SourceRef): string {
  const { repo, commit } = UPSTREAM[source.upstream];
  return `${repo}@${commit.slice(0, 7)}:${source.path}${source.symbol ? `#${source.symbol}` : ''}`;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ClientName = 'komf' | 'komelia' | 'komga-webui' | 'mihon-extension' | 'mihon-tracker';

/**
 * One request a client makes, as data: the documentation of a session and the checklist of a replay.
 * `path` is relative to the server URL the user typed (e.g. `https://host/komga`), with `{placeholders}`.
 */
export interface ClientStep {
  step: string;
  client: ClientName;
  method: HttpMethod;
  path: string;
  /** The query as the client sends it, placeholders in braces (`page={page-1}`), encoding not applied. */
  query?: string;
  /** What the body is: a schema of the JSON the client serializes, or a description (multipart…). */
  body?: z.ZodType | string;
  /** Statuses the client accepts without failing; anything else is an exception in the client. */
  accepts: readonly number[];
  /** The schema the client deserializes the answer with (absent: the body is ignored or binary). */
  response?: z.ZodType;
  /** What the client does with the answer (why the call matters to the user). */
  effect: string;
  source: readonly SourceRef[];
}

// ---- Query strings --------------------------------------------------------------------------------------------

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Ktor `String.encodeURLParameter(spaceToPlus)` (ktor-http `Codecs.kt`): unreserved kept, rest `%XX`. */
export function ktorEncodeParameter(value: string, spaceToPlus: boolean): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char)) out += char;
    else if (spaceToPlus && char === ' ') out += '+';
    else out += hex(byte);
  }
  return out;
}

/** A Ktor request's query: names with `encodeURLParameter()`, values with `encodeURLParameterValue()`. */
export function ktorQuery(params: readonly (readonly [string, string])[]): string {
  return params
    .map(([name, value]) => `${ktorEncodeParameter(name, false)}=${ktorEncodeParameter(value, true)}`)
    .join('&');
}

const OKHTTP_QUERY_COMPONENT_ENCODE_SET = ' !"#$&\'(),/:;<=>?@[]\\^`{|}~';

/** OkHttp `HttpUrl.Builder.addQueryParameter` (`canonicalize(QUERY_COMPONENT_ENCODE_SET, plusIsSpace = true)`). */
export function okhttpEncodeQueryComponent(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code >= 0x7f || OKHTTP_QUERY_COMPONENT_ENCODE_SET.includes(char) || char === '+') {
      for (const byte of new TextEncoder().encode(char)) out += hex(byte);
    } else out += char;
  }
  return out;
}

export function okhttpQuery(params: readonly (readonly [string, string])[]): string {
  return params
    .map(([name, value]) => `${okhttpEncodeQueryComponent(name)}=${okhttpEncodeQueryComponent(value)}`)
    .join('&');
}

/**
 * komga-client `KomgaPageRequest` (`common/Page.kt`): `pageIndex`, `size`, `sort`, and `unpaged`, which defaults
 * to **false and is always sent** unless set to null. `toParams()` appends size, page, unpaged, sort in that
 * order; several sort orders are concatenated without a separator (a komga-client quirk: `a,ascb,desc`).
 */
export interface KomgaPageRequest {
  pageIndex?: number;
  size?: number;
  sort?: readonly (readonly [property: string, direction: 'asc' | 'desc'])[];
  unpaged?: boolean | null;
}

export function komgaPageParams(request: KomgaPageRequest): [string, string][] {
  const params: [string, string][] = [];
  if (request.size !== undefined) params.push(['size', String(request.size)]);
  if (request.pageIndex !== undefined) params.push(['page', String(request.pageIndex)]);
  const unpaged = request.unpaged === undefined ? false : request.unpaged;
  if (unpaged !== null) params.push(['unpaged', String(unpaged)]);
  const sort = (request.sort ?? []).map(([property, direction]) => `${property},${direction}`).join('');
  if (sort) params.push(['sort', sort]);
  return params;
}

/** Kotlin `joinToString()` with no arguments: `", "` between items (komga-client uses it for several id lists). */
export const kotlinJoin = (items: readonly string[]) => items.join(', ');

// ---- Multipart ------------------------------------------------------------------------------------------------

/** A Ktor `formData { … }` part: a file (`append(key, ByteArray, headers)`) or a scalar (`append(key, Boolean)`). */
export type KtorFormPart =
  | { name: string; bytes: Uint8Array; contentDisposition: string }
  | { name: string; value: string };

/**
 * The exact body Ktor writes (ktor-client-core `forms/formDsl.kt` `formData`, `forms/FormDataContent.kt`
 * `MultiPartFormDataContent`): each part's header `Content-Disposition: form-data; name=<key>` (quoted only when
 * needed) with any extra Content-Disposition value joined by `"; "`, then `Content-Length`; a file part gets
 * **no Content-Type**. komga-client's thumbnail uploads pass `filename=""` (the default `filename` argument), so
 * a server sees a part named `file` with an empty file name and no media type, and must sniff the bytes.
 */
export function ktorMultipart(
  parts: readonly KtorFormPart[],
  boundary = ktorBoundary(),
): { contentType: string; body: Uint8Array } {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const name = /[\s"=;,]/.test(part.name) ? JSON.stringify(part.name) : part.name;
    const disposition = [`form-data; name=${name}`];
    let content: Uint8Array;
    if ('bytes' in part) {
      disposition.push(part.contentDisposition);
      content = part.bytes;
    } else content = encoder.encode(part.value);
    const headers = `Content-Disposition: ${disposition.join('; ')}\r\nContent-Length: ${content.length}\r\n`;
    chunks.push(encoder.encode(`--${boundary}\r\n${headers}\r\n`), content, encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

/** Ktor `generateBoundary()`: 32 random ints in hex, concatenated, cut to 70 characters. */
export function ktorBoundary(): string {
  let out = '';
  for (let i = 0; i < 32; i++) out += ((Math.random() * 2 ** 32) | 0).toString(16);
  return out.slice(0, 70);
}

/**
 * komga-client's thumbnail upload, identical for series, books, collections and read lists
 * (`series/HttpSeriesClient.kt` `uploadThumbnail`, `book/HttpBookClient.kt`, `collection/HttpCollectionClient.kt`,
 * `readlist/HttpReadListClient.kt`): POST `…/thumbnails`, multipart `file` (+ `filename=""`) and `selected`
 * (`"true"`/`"false"`), Content-Type `multipart/form-data; boundary=…`.
 */
export function komgaClientThumbnailUpload(image: Uint8Array, selected: boolean, filename = '') {
  return ktorMultipart([
    { name: 'file', bytes: image, contentDisposition: `filename="${filename}"` },
    { name: 'selected', value: String(selected) },
  ]);
}

// ---- Replaying ------------------------------------------------------------------------------------------------

/** A request as the client puts it on the wire; `path` is relative to the server URL and already encoded. */
export interface WireRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

/** Sends a wire request to the server under test (see ./self-transport.ts for the worker's). */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/** Ktor `ClientRequestException` (or a redirect/server exception): what `expectSuccess = true` throws. */
export class ClientRequestError extends Error {
  constructor(
    readonly request: WireRequest,
    readonly status: number,
    readonly text: string,
  ) {
    super(`${request.method} ${request.path} → ${status}: ${text.slice(0, 300)}`);
  }
}

/** What a replay did, in order, for assertions on the sequence itself. */
export interface CallRecord {
  step: string;
  method: HttpMethod;
  path: string;
  status: number;
}

/**
 * A komga-client (Ktor) session: every response with a status ≥ 300 throws `ClientRequestError` as Ktor's
 * `expectSuccess = true` does; JSON is decoded like kotlinx.serialization (`ignoreUnknownKeys = true`: unknown
 * keys ignored, a missing non-null field or a wrong type fails).
 */
export class KtorSession {
  readonly calls: CallRecord[] = [];

  constructor(
    private readonly transport: Transport,
    /** Headers every request carries (Komf: preemptive Basic and its User-Agent; Komelia: cookies via the jar). */
    private readonly defaults: Record<string, string> = {},
  ) {}

  async send(step: string, request: Omit<WireRequest, 'headers'> & { headers?: Record<string, string> }) {
    const wire: WireRequest = { ...request, headers: { ...this.defaults, ...request.headers } };
    const response = await this.transport(wire);
    this.calls.push({ step, method: wire.method, path: wire.path, status: response.status });
    if (response.status >= 300)
      throw new ClientRequestError(wire, response.status, new TextDecoder().decode(response.bytes));
    return response;
  }

  /** `ktor.get(…).body<T>()` with ContentNegotiation's JSON converter. */
  async json<T extends z.ZodType>(step: string, request: Parameters<KtorSession['send']>[1], schema: T) {
    const response = await this.send(step, { ...request, headers: { Accept: 'application/json', ...request.headers } });
    return decodeKotlinx(schema, response, `${step} (${request.method} ${request.path})`);
  }
}

/**
 * Ktor's ContentNegotiation only decodes a body whose Content-Type matches the JSON converter, which accepts
 * `application/json` and any `application/*+json` (so `application/webpub+json` and the Readium
 * `application/vnd.readium.*+json` types decode; `text/plain` would not).
 */
export function decodeKotlinx<T extends z.ZodType>(schema: T, response: WireResponse, what: string): z.infer<T> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new Error(`${what}: Content-Type "${type}" would not be decoded as JSON by Ktor`);
  }
  const value = JSON.parse(new TextDecoder().decode(response.bytes));
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${what} would not deserialize: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return result.data;
}

/**
 * A Kotlin `Float`/`Double` value: kotlinx writes integral ones with a fraction (`1.0`), which JSON.stringify
 * cannot; `kotlinxJson` restores it so a replayed body is byte-for-byte the client's.
 */
export class KotlinFloat {
  constructor(readonly value: number) {}
}

export const kotlinFloat = (value: number) => new KotlinFloat(value);

/**
 * Kotlin `Float.toString()` as kotlinx writes it: the value rounded to 32 bits, in the fewest digits that read
 * back to the same Float (1/3 → `0.33333334`), integral values with `.0`.
 */
export function kotlinFloatText(value: number): string {
  const f = Math.fround(value);
  if (Number.isInteger(f) && Math.abs(f) < 1e7) return `${f}.0`;
  for (let digits = 1; digits <= 9; digits++) {
    const text = String(Number(f.toPrecision(digits)));
    if (Math.fround(Number(text)) === f) return text;
  }
  return String(f);
}

/** JSON text as kotlinx.serialization writes a komga-client request object (`encodeDefaults = false`). */
export function kotlinxJson(value: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (!(v instanceof KotlinFloat)) return v;
    marks.push(kotlinFloatText(v.value));
    return `\u0000${marks.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)] ?? '');
}

/** A JSON request as komga-client sends it: `contentType(ContentType.Application.Json)` + the kotlinx text. */
export function jsonBody(value: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { 'Content-Type': 'application/json' }, body: kotlinxJson(value) };
}
