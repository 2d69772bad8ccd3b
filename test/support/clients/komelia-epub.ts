/**
 * Komelia opening and reading an EPUB through Komga's Readium endpoints — issue 22's "replays Komelia's EPUB
 * session". Komelia renders EPUBs in a webview and proxies every request the page makes through komga-client:
 *
 * - Snd-R/Komelia `komelia-ui/src/commonMain/kotlin/snd/komelia/ui/reader/`: `ImageReaderScreen.kt` `readerScreen`
 *   (DIVINA/PDF or `epubDivinaCompatible` → image reader, EPUB → webview), `epub/TtsuReaderState.kt` (the default
 *   reader, `EpubReaderType.TTSU_EPUB` in `komelia-infra/database/shared/.../EpubReaderSettings.kt`),
 *   `epub/KomgaEpubReaderState.kt` (the "Komga" reader: Komga's own web reader, vendored as
 *   `komelia-epub-reader/komga-webui/src/components/EpubReader.vue`, `src/functions/readium.ts`, `src/external.ts`),
 *   `epub/BookResourceRequest.kt` (`proxyResourceRequest`).
 * - Snd-R/komga-client 0.10.2 `book/HttpBookClient.kt` (manifest, positions, progression, resource),
 *   `book/WebPub.kt`, `book/Readium.kt`.
 * - gotson/komga `komga/src/main/kotlin/org/gotson/komga/`: `interfaces/api/rest/BookController.kt`
 *   (`getBookWebPubManifest`, `getBookPositions`, `…/manifest/{epub,divina,pdf}`), `interfaces/api/CommonBookController.kt`
 *   (`getWebPubManifest*Internal`, `getBookEpubResource`, `getBookProgression`, `updateBookProgression`),
 *   `interfaces/api/WebPubGenerator.kt`, `interfaces/api/dto/{WepPub.kt,Constants.kt}`, `domain/model/{R2Locator,
 *   R2Progression,MediaType}.kt`, `domain/service/BookLifecycle.kt` (`markProgression`),
 *   `infrastructure/mediacontainer/epub/EpubExtractor.kt` (`computePositions`, `getDivinaPages`, `computePageCount`),
 *   `domain/service/BookAnalyzer.kt`, `interfaces/api/Utils.kt` + `infrastructure/web/Utils.kt` (cache headers).
 * Commits: UPSTREAM in ./client-http.ts.
 */
import { z } from 'zod';
import { int, KomeliaBook, localDate } from '../komga-client-dtos';
import { type ClientStep, kotlinFloat, kotlinxJson, ref } from './client-http';

const API = 'komga/src/main/kotlin/org/gotson/komga/interfaces/api';
const READER = 'komelia-ui/src/commonMain/kotlin/snd/komelia/ui/reader';
const KC = 'src/commonMain/kotlin/snd/komga/client';

/** `interfaces/api/dto/Constants.kt`. */
export const MEDIA_TYPES = {
  webpub: 'application/webpub+json',
  divina: 'application/divina+json',
  positionList: 'application/vnd.readium.position-list+json',
  progression: 'application/vnd.readium.progression+json',
} as const;

export const PROFILES = {
  divina: 'https://readium.org/webpub-manifest/profiles/divina',
  epub: 'https://readium.org/webpub-manifest/profiles/epub',
  pdf: 'https://readium.org/webpub-manifest/profiles/pdf',
} as const;

// ---- Manifest -------------------------------------------------------------------------------------------------

/**
 * A Readium link as komga-client reads it (`book/WebPub.kt` `WPLink`): every field optional, lists default to
 * empty, `properties` a map of maps. Komga writes WPLinkDto with `@JsonInclude(NON_EMPTY)`: null fields,
 * empty strings, lists and maps are left out.
 */
export interface WPLink {
  title?: string;
  rel?: string;
  href?: string;
  type?: string;
  templated?: boolean;
  width?: number;
  height?: number;
  alternate?: WPLink[];
  children?: WPLink[];
  properties?: Record<string, Record<string, unknown>>;
}

export const WPLinkSchema: z.ZodType<WPLink> = z.lazy(() =>
  z.object({
    title: z.string().optional(),
    rel: z.string().optional(),
    href: z.string().optional(),
    type: z.string().optional(),
    templated: z.boolean().optional(),
    width: int.optional(),
    height: int.optional(),
    alternate: z.array(WPLinkSchema).optional(),
    children: z.array(WPLinkSchema).optional(),
    properties: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  }),
);

/** kotlin.time.Instant.parse: ISO-8601 with `Z` or an offset. */
const kotlinInstantText = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/);

/**
 * `WPPublication` as komga-client decodes it (`book/WebPub.kt`, kotlinx, unknown keys ignored): `metadata.title`
 * and `links` are the only required keys; `metadata.modified` must parse as an Instant, `published` as a
 * LocalDate, `readingProgression` be rtl|ltr|ttb|btt|auto. Komga writes the JSON-LD context under `context`
 * (WPPublicationDto uses `@JsonAlias("@context")`, which only affects reading).
 */
export const KomeliaWPPublication = z.object({
  context: z.string().optional(),
  metadata: z.object({
    title: z.string(),
    identifier: z.string().optional(),
    type: z.string().optional(),
    conformsTo: z.string().optional(),
    sortAs: z.string().optional(),
    subtitle: z.string().optional(),
    modified: kotlinInstantText.optional(),
    published: localDate.optional(),
    language: z.string().optional(),
    author: z.array(z.string()).optional(),
    translator: z.array(z.string()).optional(),
    editor: z.array(z.string()).optional(),
    artist: z.array(z.string()).optional(),
    illustrator: z.array(z.string()).optional(),
    letterer: z.array(z.string()).optional(),
    penciler: z.array(z.string()).optional(),
    colorist: z.array(z.string()).optional(),
    inker: z.array(z.string()).optional(),
    contributor: z.array(z.string()).optional(),
    publisher: z.array(z.string()).optional(),
    subject: z.array(z.string()).optional(),
    readingProgression: z.enum(['rtl', 'ltr', 'ttb', 'btt', 'auto']).optional(),
    description: z.string().optional(),
    numberOfPages: int.optional(),
    belongsTo: z
      .object({
        series: z
          .array(
            z.object({ name: z.string(), position: z.number().optional(), links: z.array(WPLinkSchema).optional() }),
          )
          .optional(),
        collection: z.array(z.object({ name: z.string(), position: z.number().optional() })).optional(),
      })
      .optional(),
    rendition: z.record(z.string(), z.unknown()).optional(),
  }),
  links: z.array(WPLinkSchema),
  images: z.array(WPLinkSchema).optional(),
  readingOrder: z.array(WPLinkSchema).optional(),
  resources: z.array(WPLinkSchema).optional(),
  toc: z.array(WPLinkSchema).optional(),
  landmarks: z.array(WPLinkSchema).optional(),
  pageList: z.array(WPLinkSchema).optional(),
});

/**
 * What Komga puts in an EPUB's manifest (`WebPubGenerator.toManifestEpub`), beyond the client's minimum, for a
 * test to compare against:
 * - served as `application/webpub+json` (`/manifest` picks the profile: DIVINA → divina manifest, PDF → pdf,
 *   EPUB → this; `/manifest/epub` answers 400 for a non-EPUB book);
 * - `context` "https://readium.org/webpub-manifest/context.jsonld"; `metadata.conformsTo` PROFILES.epub;
 *   `metadata.rendition` `{layout: fixed|reflowable}`; title, description (summary), numberOfPages, modified
 *   (book lastModified), published (releaseDate), subject (tags), identifier `urn:isbn:…`, belongsTo.series
 *   `[{name: seriesTitle, position: numberSort}]`, language and readingProgression from the series; authors by
 *   role (`author`, `translator`, `editor`, `artist`, `illustrator`, `letterer`, `penciler` (+"penciller"),
 *   `colorist`, `inker`; any other role → `contributor`);
 * - `links`: self = `{server}/api/v1/books/{id}/manifest` typed by profile; when `epubDivinaCompatible` also
 *   `{server}/api/v1/books/{id}/manifest/divina` (`application/divina+json`); acquisition
 *   (`http://opds-spec.org/acquisition`) `{server}/api/v1/books/{id}/file` typed with the media type;
 * - `readingOrder`: the spine items (`EPUB_PAGE` files) and `resources`: the book thumbnail
 *   (`{server}/api/v1/books/{id}/thumbnail`) then every other manifest item (`EPUB_ASSET`), each
 *   `{href: komgaResourceHref(…), type: the OPF media-type}`;
 * - `toc`, `landmarks`, `pageList` from nav/NCX/guide, hrefs absolute with their `#fragment`, titles kept,
 *   nested in `children`.
 * All hrefs are **absolute URLs under the server URL** — Komelia refuses any other (see komeliaResourceRequest).
 */
export const KOMGA_EPUB_MANIFEST_RULES = ref('komga', `${API}/WebPubGenerator.kt`, 'toManifestEpub');

const SPRING_PATH_ALLOWED = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/**
 * Spring `UriComponentsBuilder.path(fileName).toUriString()` for a path: UTF-8 bytes outside RFC 3986 `pchar`
 * and `/` become `%XX` (upper-case hex): space → `%20`, `é` → `%C3%A9`, `%` → `%25`, `#` → `%23`, `?` → `%3F`;
 * `/` separators are kept, so nested folders stay nested.
 */
export function springEncodePath(path: string): string {
  let out = '';
  for (const char of path) {
    if (SPRING_PATH_ALLOWED.test(char)) out += char;
    else
      for (const byte of new TextEncoder().encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The href Komga gives an EPUB entry: `{server}/api/v1/books/{bookId}/resource/{entry path, Spring-encoded}`,
 * where the entry path is the ZIP entry name (the OPF href resolved against the OPF folder and URL-decoded).
 */
export const komgaResourceHref = (serverUrl: string, bookId: string, entryPath: string) =>
  `${serverUrl.replace(/\/$/, '')}/api/v1/books/${bookId}/resource/${springEncodePath(entryPath)}`;

// ---- Positions ------------------------------------------------------------------------------------------------

/** komga-client `R2Location` (`book/Readium.kt`): note `fragment` (singular) where Komga has `fragments`. */
export const KomeliaR2Location = z.object({
  fragment: z.array(z.string()).nullable().optional(),
  position: int.nullable().optional(),
  progression: z.number().nullable().optional(),
  totalProgression: z.number().nullable().optional(),
});

/** komga-client `R2Locator`: href and type default to "" in 0.10 (absent is fine), the rest optional. */
export const KomeliaR2Locator = z.object({
  href: z.string().optional(),
  type: z.string().optional(),
  title: z.string().nullable().optional(),
  locations: KomeliaR2Location.nullable().optional(),
  text: z
    .object({
      after: z.string().nullable().optional(),
      before: z.string().nullable().optional(),
      highlight: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  koboSpan: z.string().nullable().optional(),
});

/** `GET /api/v1/books/{id}/positions` → `application/vnd.readium.position-list+json`, `{total, positions}`. */
export const KomeliaR2Positions = z.object({ total: int, positions: z.array(KomeliaR2Locator) });

/**
 * One Komga position (R2Locator, `@JsonInclude(NON_EMPTY)`): `href` is the **raw entry path** (not a URL and
 * not encoded, unlike the manifest's hrefs), `type` its media type, `locations` `{progression, position,
 * totalProgression}` (empty `fragments` omitted), `koboSpan` when known.
 */
export interface KomgaPosition {
  href: string;
  type: string;
  locations: { progression: number; position: number; totalProgression: number };
  koboSpan?: string;
}

/**
 * Komga's positions for an EPUB (`EpubExtractor.computePositions`), computed once at analysis and stored:
 * reflowable books get the Readium rule, one position per started 1024 bytes of each spine file's
 * **uncompressed** size (at least one), `progression` = index/count within the file, positions numbered from 1
 * across the book, `totalProgression` = position/total; `koboSpan` "kobo.1.1" on each file's first position (others
 * only when the book is, or converts to, a KEPUB). Fixed-layout books get one position per spine file with
 * progression 0. `total` = the number of positions.
 */
export function komgaPositions(
  spine: readonly { entryPath: string; mediaType: string; size: number }[],
  fixedLayout = false,
): { total: number; positions: KomgaPosition[] } {
  let next = 1;
  const raw = spine.flatMap((file) => {
    const count = fixedLayout ? 1 : Math.max(1, Math.ceil(file.size / 1024));
    return Array.from({ length: count }, (_, p) => ({
      href: file.entryPath,
      type: file.mediaType,
      progression: fixedLayout ? 0 : Math.fround(p / count),
      position: next++,
      koboSpan: fixedLayout || count === 1 || p === 0 ? 'kobo.1.1' : undefined,
    }));
  });
  const positions = raw.map(({ href, type, progression, position, koboSpan }) => ({
    href,
    type,
    locations: { progression, position, totalProgression: Math.fround(position / raw.length) },
    ...(koboSpan ? { koboSpan } : {}),
  }));
  return { total: positions.length, positions };
}

// ---- Progression ----------------------------------------------------------------------------------------------

/** komga-client `R2Progression`: `modified` an Instant, `device {id, name}` required, locator as above. */
export const KomeliaR2Progression = z.object({
  modified: kotlinInstantText,
  device: z.object({ id: z.string(), name: z.string() }),
  locator: KomeliaR2Locator,
});

/**
 * Komga's progression rules (`CommonBookController.getBookProgression`/`updateBookProgression`,
 * `BookLifecycle.markProgression`, `R2Progression.kt` `toR2Progression`):
 * - GET answers 204 (no body) without progress, else 200 `application/vnd.readium.progression+json`
 *   `{modified: readDate in UTC, device: {id, name} as last PUT, locator: as stored}`; progress made without a
 *   locator (page reading) gives `locator: {}` (href and type "" are omitted by NON_EMPTY).
 * - PUT answers 204; **409** when `modified` is not strictly after the stored progress' date ("Progression is
 *   older than existing"); 400 when, for an EPUB, the locator href (its `#fragment` cut, URL-decoded) is not an
 *   entry of the book, `locations.progression` is missing, or no stored position brackets the progression;
 *   for DIVINA/PDF, 400 unless `locations.position` is within 1..pageCount (page = position, completed at the last).
 * - For an EPUB the stored locator keeps the client's href **as sent** (still percent-encoded if it was) and
 *   locations, but `type` becomes the matched position's, `koboSpan` the client's or the position's, and
 *   `totalProgression` the matched position's; the book's read progress becomes page =
 *   round(pagesCount × totalProgression), completed = totalProgression ≥ 0.99; `modified` becomes the read date.
 */
export const KOMGA_PROGRESSION_RULES = ref(
  'komga',
  'komga/src/main/kotlin/org/gotson/komga/domain/service/BookLifecycle.kt',
  'markProgression',
);

/** kotlin.time `Instant.toString()`: whole seconds without a fraction, else milliseconds. */
export function kotlinInstant(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return iso.endsWith('.000Z') ? iso.replace('.000Z', 'Z') : iso;
}

/** Komelia's `resourceBaseUriRegex` (`^http(s)?://.*\/resource/`, greedy), removed before storing an href. */
export const stripResourceBase = (href: string) => href.replace(/^https?:\/\/.*\/resource\//, '');

/**
 * `proxyResourceRequest` (BookResourceRequest.kt): the webview's request URL must **start with the server URL**
 * ("Requests to external hosts are not allowed") and match `.*\/api/v1/books/(bookId)/resource/(name)` (greedy);
 * Komelia then GETs `api/v1/books/{bookId}/resource/{name}` relative to the server URL with the name exactly
 * as it appeared in the URL (still percent-encoded), `Accept: *\/*`. URLs matching `…/manifest` or `…/positions`
 * are answered from GET manifest / GET positions instead, re-encoded by kotlinx.
 */
export function komeliaResourceRequest(
  serverUrl: string,
  url: string,
): { path: string; kind: 'resource' | 'manifest' | 'positions' } {
  if (!url.startsWith(serverUrl)) throw new Error(`Requests to external hosts are not allowed ${url}`);
  const resource = /.*\/api\/v1\/books\/(.*)\/resource\/(.*)/.exec(url);
  if (resource) return { kind: 'resource', path: `/api/v1/books/${resource[1]}/resource/${resource[2]}` };
  const manifest = /.*\/api\/v1\/books\/(.*)\/manifest/.exec(url);
  if (manifest) return { kind: 'manifest', path: `/api/v1/books/${manifest[1]}/manifest` };
  const positions = /.*\/api\/v1\/books\/(.*)\/positions/.exec(url);
  if (positions) return { kind: 'positions', path: `/api/v1/books/${positions[1]}/positions` };
  throw new Error(`Unsupported resource request ${url}`);
}

/**
 * The PUT body of Komelia's default reader (`TtsuReaderState.putBookmark`), given where the reader is:
 * the chapter (its manifest link: absolute href, type, title), how far into it (0..1) and into the book, the
 * text before the position, the bookmark time. It picks the last stored position of that chapter at or before
 * the chapter progress and the first one after; **no PUT at all** (null) when the chapter has no position whose
 * `href` equals the stripped manifest href, when the link has no type, or when none is at or before. Note the
 * comparison: positions carry raw entry paths, the stripped manifest href is percent-encoded, so a chapter whose
 * path needs encoding (space, non-ASCII) never gets a progression saved by this reader (Komga behaves the same).
 */
export function ttsuProgressionBody(input: {
  chapter: WPLink;
  chapterProgress: number;
  totalProgress?: number;
  beforeText?: string;
  modifiedMs: number;
  positions: readonly z.infer<typeof KomeliaR2Locator>[];
}): string | null {
  const { chapter } = input;
  if (!chapter.href || !chapter.type) return null;
  const href = stripResourceBase(chapter.href);
  const located = input.positions.filter(
    (p) => p.href === href && p.locations?.progression != null && p.locations?.position != null,
  );
  const progress = Math.fround(input.chapterProgress);
  const before = located
    .filter((p) => (p.locations?.progression ?? 0) <= progress)
    .sort((a, b) => (b.locations?.position ?? 0) - (a.locations?.position ?? 0))[0];
  const after = located
    .filter((p) => (p.locations?.progression ?? 0) > progress)
    .sort((a, b) => (a.locations?.position ?? 0) - (b.locations?.position ?? 0))[0];
  if (!before || (after && (before.locations?.position ?? 0) > (after.locations?.position ?? 0))) return null;
  const locations: Record<string, unknown> = {
    fragment: [],
    position: before.locations?.position,
    progression: kotlinFloat(after ? progress : (before.locations?.progression ?? 0)),
  };
  if (input.totalProgress !== undefined) locations.totalProgression = kotlinFloat(input.totalProgress);
  const locator: Record<string, unknown> = { href, type: chapter.type };
  if (chapter.title) locator.title = chapter.title;
  locator.locations = locations;
  if (input.beforeText !== undefined) locator.text = { before: input.beforeText };
  return kotlinxJson({ modified: kotlinInstant(input.modifiedMs), device: { id: 'unused', name: 'Komelia' }, locator });
}

/**
 * The PUT body of the "Komga" reader (EpubReader.vue `markProgress` → `createR2Progression`, on every location
 * change, incognito or not) after Komelia's Kotlin side parsed it into komga-client's R2Progression, stripped the
 * href (`progressionFromWebview`) and re-encoded it (`encodeDefaults = false`): device `{id: "unused",
 * name: "Komga-webui"}`, `fragment` always an array (`[]` when none), floats as Kotlin Floats.
 */
export function komgaWebuiProgressionBody(locator: {
  href: string;
  type?: string;
  title?: string;
  locations: { fragment?: string; progression?: number; position?: number; totalProgression?: number };
  text?: { before?: string; highlight?: string; after?: string };
  modifiedMs: number;
}): string {
  const l = locator.locations;
  const locations: Record<string, unknown> = { fragment: l.fragment ? [l.fragment] : [] };
  if (l.position !== undefined) locations.position = l.position;
  if (l.progression !== undefined) locations.progression = kotlinFloat(l.progression);
  if (l.totalProgression !== undefined) locations.totalProgression = kotlinFloat(l.totalProgression);
  const body: Record<string, unknown> = {
    href: stripResourceBase(locator.href),
    type: locator.type || 'application/octet-stream',
  };
  if (locator.title) body.title = locator.title;
  body.locations = locations;
  if (locator.text) {
    const { after, before, highlight } = locator.text;
    body.text = { after, before, highlight };
  }
  return kotlinxJson({
    modified: kotlinInstant(locator.modifiedMs),
    device: { id: 'unused', name: 'Komga-webui' },
    locator: body,
  });
}

/**
 * `TtsuReaderState.getBookmark` on opening (this or another device): the stored locator's href must equal a
 * reading-order href with the server prefix stripped, **byte for byte** — else `sections[-1]` throws and the
 * book does not open. Returns that chapter's index.
 */
export function ttsuChapterIndex(
  manifest: z.infer<typeof KomeliaWPPublication>,
  progression: z.infer<typeof KomeliaR2Progression>,
): number {
  const index = (manifest.readingOrder ?? []).findIndex(
    (l) => l.href !== undefined && stripResourceBase(l.href) === progression.locator.href,
  );
  if (index < 0)
    throw new Error(`Komelia would crash: stored href ${progression.locator.href} is no reading-order href`);
  return index;
}

// ---- The sessions ---------------------------------------------------------------------------------------------

const res = 'resource';

/** Komelia's default EPUB reader (TTSU), opening a book and reading it. */
export const KOMELIA_TTSU_EPUB_STEPS: readonly ClientStep[] = [
  {
    step: 'book',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}',
    accepts: [200],
    response: KomeliaBook,
    effect:
      '`media.mediaProfile` "EPUB" and `epubDivinaCompatible` false → the EPUB reader; true → the image reader (pages).',
    source: [ref('komelia', `${READER}/ImageReaderScreen.kt`, 'readerScreen')],
  },
  {
    step: 'manifest',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/manifest',
    body: 'Accept: */* (komga-client `accept(ContentType.Any)`) plus application/json from ContentNegotiation',
    accepts: [200],
    response: KomeliaWPPublication,
    effect:
      'Decoded only if the Content-Type is JSON or `application/*+json`. readingOrder hrefs must be absolute under the ' +
      'server URL; the first one is required; every toc entry with an href needs a title (`requireNotNull`).',
    source: [
      ref('komelia', `${READER}/epub/TtsuReaderState.kt`, 'generateEpubHtml'),
      ref('komgaClient', `${KC}/book/HttpBookClient.kt`, 'getWebPubManifest'),
      ref('komga', `${API}/rest/BookController.kt`, 'getBookWebPubManifest'),
    ],
  },
  {
    step: 'positions',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/positions',
    accepts: [200],
    response: KomeliaR2Positions,
    effect: 'Kept to turn a reading position into a locator when saving (ttsuProgressionBody).',
    source: [ref('komga', `${API}/rest/BookController.kt`, 'getBookPositions')],
  },
  {
    step: 'chapters',
    client: 'komelia',
    method: 'GET',
    path: `/api/v1/books/{bookId}/${res}/{entry path as in the manifest href}`,
    accepts: [200],
    effect:
      'Every readingOrder item at once (parallel), then every `resources` item typed text/css; images referenced by ' +
      'the chapters are fetched when displayed (webview interceptor, same path). Bodies are decoded as text; the ' +
      'Content-Type is not used by Komelia (Komga sends the OPF media type).',
    source: [
      ref('komelia', `${READER}/epub/BookResourceRequest.kt`, 'proxyResourceRequest'),
      ref('komga', `${API}/CommonBookController.kt`, 'getBookEpubResource'),
    ],
  },
  {
    step: 'progression',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/progression',
    accepts: [200, 204],
    response: KomeliaR2Progression,
    effect:
      '204 → start at the first chapter; 200 → ttsuChapterIndex() and totalProgression/text.before place the reader.',
    source: [
      ref('komelia', `${READER}/epub/TtsuReaderState.kt`, 'getBookmark'),
      ref('komgaClient', `${KC}/book/HttpBookClient.kt`, 'getReadiumProgression'),
    ],
  },
  {
    step: 'progression-put',
    client: 'komelia',
    method: 'PUT',
    path: '/api/v1/books/{bookId}/progression',
    body: 'ttsuProgressionBody(): application/json',
    accepts: [200, 202, 204],
    effect:
      'On every bookmark (auto-bookmark on scroll unless incognito). A 409 or 400 is thrown to the webview callback.',
    source: [ref('komelia', `${READER}/epub/TtsuReaderState.kt`, 'putBookmark')],
  },
  {
    step: 'complete',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/books/{bookId}/read-progress',
    body: '{"completed":true}',
    accepts: [200, 204],
    effect: '"Complete book" in the reader, then it closes.',
    source: [ref('komelia', `${READER}/epub/TtsuReaderState.kt`, 'loadEpub')],
  },
];

/** Komelia's "Komga" EPUB reader (Komga's own web reader in the webview; every request proxied by Komelia). */
export const KOMELIA_KOMGA_EPUB_STEPS: readonly ClientStep[] = [
  {
    step: 'book',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}',
    accepts: [200],
    response: KomeliaBook,
    effect: 'bookGet(); then getOneSeries → GET /api/v1/series/{seriesId} for the title.',
    source: [ref('komelia', 'komelia-epub-reader/komga-webui/src/components/EpubReader.vue', 'setupState')],
  },
  {
    step: 'progression',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/progression',
    accepts: [200, 204],
    response: KomeliaR2Progression,
    effect:
      'Komelia prefixes the stored href with `{server}/api/v1/books/{bookId}/resource/` (progressionToWebview) for the reader.',
    source: [ref('komelia', `${READER}/epub/KomgaEpubReaderState.kt`, 'progressionToWebview')],
  },
  {
    step: 'manifest',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/manifest',
    accepts: [200],
    response: KomeliaWPPublication,
    effect:
      "D2Reader.load({url: {server}/api/v1/books/{id}/manifest}); the page's fetch is proxied and the manifest re-encoded by kotlinx.",
    source: [
      ref('komelia', 'komelia-epub-reader/komga-webui/src/external.ts'),
      ref('komelia', `${READER}/epub/BookResourceRequest.kt`),
    ],
  },
  {
    step: 'positions',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/positions',
    accepts: [200],
    response: KomeliaR2Positions,
    effect:
      "D2Reader `services.positions` (autoGeneratePositions false): the reader's page numbers and totalProgression.",
    source: [ref('komelia', 'komelia-epub-reader/komga-webui/src/components/EpubReader.vue', 'setupState')],
  },
  {
    step: 'resources',
    client: 'komelia',
    method: 'GET',
    path: `/api/v1/books/{bookId}/${res}/{entry path}`,
    accepts: [200],
    effect: 'd2ReaderGetContent for the chapter shown, then its CSS, images and fonts through the webview interceptor.',
    source: [ref('komelia', `${READER}/epub/KomgaEpubReaderState.kt`, 'getD2Content')],
  },
  {
    step: 'siblings',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/next (then /previous)',
    accepts: [200],
    response: KomeliaBook,
    effect: 'Errors (404 at the ends) are swallowed.',
    source: [ref('komelia', 'komelia-epub-reader/komga-webui/src/components/EpubReader.vue', 'setupState')],
  },
  {
    step: 'progression-put',
    client: 'komelia',
    method: 'PUT',
    path: '/api/v1/books/{bookId}/progression',
    body: 'komgaWebuiProgressionBody(): application/json',
    accepts: [200, 202, 204],
    effect: 'On every location change (updateCurrentLocation → markProgress), not debounced.',
    source: [ref('komelia', 'komelia-epub-reader/komga-webui/src/functions/readium.ts', 'createR2Progression')],
  },
];

/**
 * An image-only EPUB that Komga found DiViNa-compatible (`EpubExtractor.getDivinaPages`: every spine item is an
 * image, or an XHTML page with at most 15 letters of text (`epubDivinaLetterCountThreshold`) and exactly one
 * distinct image (`img src` / `svg image xlink:href`), all images declared in the OPF): `epubDivinaCompatible`
 * true, `pagesCount` = those images (otherwise the Readium count: Σ ceil(compressed size / 1024) over the spine),
 * pages served by `/pages/{n}` from the images, the EPUB manifest's links gain `/manifest/divina`. Mihon lists an
 * EPUB as a chapter only when `mediaProfile != "EPUB" || epubDivinaCompatible`; Komelia then opens the image
 * reader (GET pages, GET pages/{n}).
 */
export const DIVINA_EPUB_RULES = [
  ref(
    'komga',
    'komga/src/main/kotlin/org/gotson/komga/infrastructure/mediacontainer/epub/EpubExtractor.kt',
    'getDivinaPages',
  ),
  ref('mihonExtension', 'src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga/Komga.kt', 'chapterListParse'),
] as const;

/**
 * `GET /api/v1/books/{id}/resource/{*path}` as Komga answers it (CommonBookController.getBookEpubResource):
 * the path variable is URL-decoded and must equal an entry of the book's OPF manifest exactly (else 404); a
 * non-EPUB book → 400; fonts (otf, woff, woff2, eot, ttf, svg) are served **without authentication**, anything
 * else without credentials → 401; headers: `Content-Type` = the OPF media type (application/octet-stream if
 * unparsable), `Content-Disposition: inline; filename*=UTF-8''<last path segment>`, `Content-Security-Policy:
 * script-src 'none'; object-src 'none';`, `Cache-Control: max-age=0, must-revalidate, private`, `Last-Modified`
 * = the analysis date, and 304 on a matching `If-Modified-Since`.
 */
export const KOMGA_RESOURCE_RULES = ref('komga', `${API}/CommonBookController.kt`, 'getBookEpubResource');
