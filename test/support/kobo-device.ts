/**
 * A Kobo e-reader as Longbox sees one, for the tests: it calls what the device's firmware calls, in its order
 * (initialization → auth/device → library sync until no `x-kobo-sync: continue` → a book's metadata → the
 * download → a reading-state PUT → sync again), with the device's headers and query strings as the nickel
 * packet dumps in gotson/komga#2426 and #2083 show them, and keeps a library the way the device does: each sync
 * item applied to what it holds (books, their metadata and reading state, shelves).
 *
 * Every item and body is checked against the shapes Komga's DTOs and the device logs give (UpperCamelCase,
 * Kobo's dates), so an answer a real device would choke on fails the test that received it.
 */
import { SELF } from 'cloudflare:test';
import { z } from 'zod';

const BASE = 'http://longbox.test';
/** ISO 8601 in UTC as Kobo writes and reads it: `2026-09-08T18:14:23.129Z`. */
const koboDate = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?Z$/);

const Entitlement = z
  .object({
    Accessibility: z.literal('Full'),
    ActivePeriod: z.object({ From: koboDate }).strict(),
    Created: koboDate,
    CrossRevisionId: z.string(),
    Id: z.string(),
    IsHiddenFromArchive: z.boolean(),
    IsLocked: z.boolean(),
    IsRemoved: z.boolean(),
    LastModified: koboDate,
    OriginCategory: z.literal('Imported'),
    RevisionId: z.string(),
    Status: z.literal('Active'),
  })
  .strict();

const DownloadUrl = z
  .object({
    DrmType: z.literal('None'),
    Format: z.enum(['EPUB3', 'EPUB3FL', 'KEPUB', 'EPUB']),
    Size: z.number().int().nonnegative(),
    Platform: z.literal('Generic'),
    Url: z.string(),
  })
  .strict();

const Metadata = z
  .object({
    Categories: z.array(z.string()),
    ContributorRoles: z.array(z.object({ Name: z.string() }).strict()),
    Contributors: z.array(z.string()),
    CoverImageId: z.string(),
    CrossRevisionId: z.string(),
    CurrentDisplayPrice: z.object({ CurrencyCode: z.string(), TotalAmount: z.number() }).strict(),
    CurrentLoveDisplayPrice: z.object({ TotalAmount: z.number() }).strict(),
    Description: z.string(),
    DownloadUrls: z.array(DownloadUrl),
    EntitlementId: z.string(),
    ExternalIds: z.array(z.string()),
    Genre: z.string(),
    IsEligibleForKoboLove: z.boolean(),
    IsInternetArchive: z.boolean(),
    IsPreOrder: z.boolean(),
    IsSocialEnabled: z.boolean(),
    Isbn: z.string().optional(),
    Language: z.string().regex(/^[a-z]{2}$/),
    PhoneticPronunciations: z.record(z.string(), z.string()),
    PublicationDate: koboDate,
    Publisher: z.object({ Imprint: z.string(), Name: z.string() }).strict(),
    RevisionId: z.string(),
    Series: z
      .object({ Id: z.string(), Name: z.string(), Number: z.string(), NumberFloat: z.number() })
      .strict()
      .optional(),
    Title: z.string(),
    WorkId: z.string(),
  })
  .strict();

const Bookmark = z
  .object({
    LastModified: koboDate,
    ProgressPercent: z.number().min(0).max(100).optional(),
    ContentSourceProgressPercent: z.number().min(0).max(100).optional(),
    Location: z.object({ Value: z.string().nullable(), Type: z.string(), Source: z.string() }).strict().optional(),
  })
  .strict();

export const ReadingState = z
  .object({
    Created: koboDate,
    CurrentBookmark: Bookmark,
    EntitlementId: z.string(),
    LastModified: koboDate,
    PriorityTimestamp: koboDate,
    Statistics: z
      .object({
        LastModified: koboDate,
        SpentReadingMinutes: z.number().optional(),
        RemainingTimeMinutes: z.number().optional(),
      })
      .strict(),
    StatusInfo: z
      .object({
        LastModified: koboDate,
        Status: z.enum(['ReadyToRead', 'Reading', 'Finished']),
        TimesStartedReading: z.number().int(),
        LastTimeStartedReading: koboDate.optional(),
        LastTimeFinished: koboDate.optional(),
      })
      .strict(),
  })
  .strict();

const Tag = z
  .object({
    Tag: z
      .object({
        Id: z.string(),
        Created: koboDate,
        LastModified: koboDate,
        Name: z.string(),
        Type: z.literal('UserTag'),
        Items: z
          .array(z.object({ RevisionId: z.string(), Type: z.literal('ProductRevisionTagItem') }).strict())
          .optional(),
      })
      .strict(),
  })
  .strict();

const Container = z
  .object({ BookEntitlement: Entitlement, BookMetadata: Metadata, ReadingState: ReadingState.optional() })
  .strict();

export const SyncItem = z.union([
  z.object({ NewEntitlement: Container }).strict(),
  z.object({ ChangedEntitlement: Container }).strict(),
  z.object({ ChangedProductMetadata: Metadata }).strict(),
  z.object({ ChangedReadingState: z.object({ ReadingState }).strict() }).strict(),
  z.object({ NewTag: Tag }).strict(),
  z.object({ ChangedTag: Tag }).strict(),
  z.object({ DeletedTag: Tag }).strict(),
]);
export type SyncItem = z.infer<typeof SyncItem>;
export type KoboMetadata = z.infer<typeof Metadata>;
export type KoboReadingState = z.infer<typeof ReadingState>;

export interface DeviceBook {
  metadata: KoboMetadata;
  state: KoboReadingState | undefined;
}

export interface SyncRun {
  /** Items of each page, in order. */
  pages: SyncItem[][];
  /** Every NewEntitlement's book id across the run, repeats included. */
  sent: string[];
  removed: string[];
  states: string[];
  tags: { created: string[]; changed: string[]; deleted: string[] };
}

/** Firmware 4.38's request headers (gotson/komga#2426 packet dump), with this device's ids. */
function deviceHeaders(id: string, bearer: string | null): Record<string, string> {
  return {
    'Accept-Encoding': 'gzip',
    Accept: 'application/json',
    ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    'Content-Type': 'application/json',
    'User-Agent':
      'Mozilla/5.0 (Linux; U; Android 2.0; en-us;) AppleWebKit/538.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/538.1 (Kobo Touch 0387/4.38.23171)',
    'X-Kobo-Appversion': '4.38.23171',
    'X-Kobo-Deviceid': id,
    'X-Kobo-Devicemodel': 'Kobo Libra Colour',
    'X-Kobo-Platformid': '00000000-0000-0000-0000-000000000390',
  };
}

export class KoboDevice {
  /** What `api_endpoint` in `.kobo/Kobo/Kobo eReader.conf` is set to. */
  readonly endpoint: string;
  token: string | null = null;
  readonly books = new Map<string, DeviceBook>();
  readonly tags = new Map<string, { name: string; items: string[] }>();
  private bearer: string | null = null;
  resources: Record<string, string> = {};

  constructor(
    key: string,
    readonly id = crypto.randomUUID().replace(/-/g, ''),
  ) {
    this.endpoint = `${BASE}/kobo/${key}`;
  }

  async call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
    const url = path.startsWith('http') ? path : `${this.endpoint}${path}`;
    const response = await SELF.fetch(url, {
      method,
      headers: { ...deviceHeaders(this.id, this.bearer), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return response;
  }

  async json(method: string, path: string, body?: unknown) {
    const response = await this.call(method, path, { body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
  }

  /** What the device does when "Sync" is tapped before the library sync: resources, then sign-in. */
  async connect(): Promise<void> {
    const init = await this.json('GET', '/v1/initialization');
    if (init.status !== 200) throw new Error(`initialization: ${init.status} ${init.text}`);
    this.resources = init.body.Resources;
    const auth = await this.json('POST', '/v1/auth/device', {
      AffiliateName: 'Kobo',
      AppVersion: '4.38.23171',
      ClientKey: 'dGVzdA==',
      DeviceId: this.id,
      PlatformId: '00000000-0000-0000-0000-000000000390',
      UserKey: 'user-key-of-the-kobo-account',
    });
    if (auth.status !== 200) throw new Error(`auth/device: ${auth.status} ${auth.text}`);
    this.bearer = auth.body.AccessToken;
  }

  /** One sync request with the token the device holds; the items are applied to its library. */
  async syncPage(): Promise<{ status: number; items: SyncItem[]; more: boolean; token: string | null; text: string }> {
    const response = await this.call(
      'GET',
      '/v1/library/sync?Filter=ALL&DownloadUrlFilter=Generic,Android&PrioritizeRecentReads=true',
      {
        headers: this.token ? { 'x-kobo-synctoken': this.token } : {},
      },
    );
    const text = await response.text();
    if (response.status !== 200) return { status: response.status, items: [], more: false, token: null, text };
    const items = (JSON.parse(text) as unknown[]).map((item) => SyncItem.parse(item));
    const token = response.headers.get('x-kobo-synctoken');
    if (!token) throw new Error('a sync answer without x-kobo-synctoken');
    this.token = token;
    for (const item of items) this.apply(item);
    return { status: 200, items, more: response.headers.get('x-kobo-sync') === 'continue', token, text };
  }

  /** Syncs until the server says no more (a device gives up after a loop: same token three times, or 200 pages). */
  async sync(maxPages = 200): Promise<SyncRun> {
    const run: SyncRun = {
      pages: [],
      sent: [],
      removed: [],
      states: [],
      tags: { created: [], changed: [], deleted: [] },
    };
    const seen = new Map<string, number>();
    for (let page = 0; ; page++) {
      if (page === maxPages) throw new Error(`sync still continuing after ${maxPages} pages`);
      const answer = await this.syncPage();
      if (answer.status !== 200) throw new Error(`sync page ${page + 1}: ${answer.status} ${answer.text}`);
      run.pages.push(answer.items);
      for (const item of answer.items) {
        if ('NewEntitlement' in item) run.sent.push(item.NewEntitlement.BookEntitlement.Id);
        if ('ChangedEntitlement' in item && item.ChangedEntitlement.BookEntitlement.IsRemoved) {
          run.removed.push(item.ChangedEntitlement.BookEntitlement.Id);
        }
        if ('ChangedReadingState' in item) run.states.push(item.ChangedReadingState.ReadingState.EntitlementId);
        if ('NewTag' in item) run.tags.created.push(item.NewTag.Tag.Id);
        if ('ChangedTag' in item) run.tags.changed.push(item.ChangedTag.Tag.Id);
        if ('DeletedTag' in item) run.tags.deleted.push(item.DeletedTag.Tag.Id);
      }
      const repeats = (seen.get(answer.token as string) ?? 0) + 1;
      seen.set(answer.token as string, repeats);
      if (repeats >= 3) throw new Error('the server keeps answering the same token: a sync loop');
      if (!answer.more) return run;
    }
  }

  private apply(item: SyncItem): void {
    if ('NewEntitlement' in item) {
      const { BookEntitlement, BookMetadata, ReadingState } = item.NewEntitlement;
      const before = this.books.get(BookEntitlement.Id);
      this.books.set(BookEntitlement.Id, { metadata: BookMetadata, state: ReadingState ?? before?.state });
    } else if ('ChangedEntitlement' in item) {
      if (item.ChangedEntitlement.BookEntitlement.IsRemoved)
        this.books.delete(item.ChangedEntitlement.BookEntitlement.Id);
    } else if ('ChangedProductMetadata' in item) {
      const book = this.books.get(item.ChangedProductMetadata.EntitlementId);
      if (book) book.metadata = item.ChangedProductMetadata;
    } else if ('ChangedReadingState' in item) {
      const state = item.ChangedReadingState.ReadingState;
      const book = this.books.get(state.EntitlementId);
      if (book) book.state = state;
    } else if ('NewTag' in item || 'ChangedTag' in item) {
      const { Tag } = 'NewTag' in item ? item.NewTag : item.ChangedTag;
      this.tags.set(Tag.Id, { name: Tag.Name, items: (Tag.Items ?? []).map((i) => i.RevisionId) });
    } else if ('DeletedTag' in item) {
      this.tags.delete(item.DeletedTag.Tag.Id);
    }
  }

  /** The book's file from the URL its metadata gave (the device downloads with its usual headers). */
  async download(
    bookId: string,
    headers: Record<string, string> = {},
  ): Promise<{ response: Response; bytes: Uint8Array }> {
    const book = this.books.get(bookId);
    if (!book) throw new Error(`the device has no book ${bookId}`);
    const url = book.metadata.DownloadUrls[0]?.Url;
    if (!url) throw new Error(`book ${bookId} has no download URL`);
    const response = await this.call('GET', url, { headers });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  /** What the device PUTs when the reader leaves a book (Komga's ReadingStateStateUpdateDto, device logs). */
  async putState(
    bookId: string,
    state: {
      status: 'ReadyToRead' | 'Reading' | 'Finished';
      progressPercent?: number;
      contentSourceProgressPercent?: number;
      location?: { Value: string | null; Type: string; Source: string };
      spentReadingMinutes?: number;
      remainingTimeMinutes?: number;
    },
  ) {
    const now = new Date().toISOString();
    return this.json('PUT', `/v1/library/${bookId}/state`, {
      ReadingStates: [
        {
          EntitlementId: bookId,
          Created: now,
          LastModified: now,
          PriorityTimestamp: now,
          StatusInfo: { LastModified: now, Status: state.status, TimesStartedReading: 1 },
          Statistics: {
            LastModified: now,
            ...(state.spentReadingMinutes !== undefined ? { SpentReadingMinutes: state.spentReadingMinutes } : {}),
            ...(state.remainingTimeMinutes !== undefined ? { RemainingTimeMinutes: state.remainingTimeMinutes } : {}),
          },
          CurrentBookmark: {
            LastModified: now,
            ...(state.progressPercent !== undefined ? { ProgressPercent: state.progressPercent } : {}),
            ...(state.contentSourceProgressPercent !== undefined
              ? { ContentSourceProgressPercent: state.contentSourceProgressPercent }
              : {}),
            ...(state.location ? { Location: state.location } : {}),
          },
        },
      ],
    });
  }
}
