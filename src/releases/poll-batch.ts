/**
 * One batch of release-poll messages (docs/DECISIONS.md §Release tracking): read what the batch needs (one D1
 * batch), ask each source's provider about each series at the provider's pace, record everything learnt (one
 * more D1 batch) and announce the new releases on the event streams.
 *
 * For each series and source:
 * - the provider's id is the series' own (a person's, or one read from its metadata links); else the one an
 *   earlier poll found by name; else the provider is searched for the series' title, other titles and aliases,
 *   and only an exact match (normalized) is taken;
 * - the provider's counts and status go to the poll row and, from the source furthest ahead, to the series'
 *   tracking row (the Series gap fields); nothing a provider says touches a user's files or metadata;
 * - releases in the series' languages, on an axis it tracks and above its high-water marks are recorded
 *   (deduplicated by source and release id; as acquired when the library already holds them), and the marks
 *   rise to the newest one seen.
 *
 * When a provider asks us to wait (429), is down or does not answer in time, the source stops for the rest of
 * the batch, waits (its `Retry-After`, else two minutes) and the unfinished messages are retried after that; a
 * provider answering garbage marks the series' poll and the source with the message and changes no ledger row.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { mapLimited } from '../lib/concurrency';
import { newId } from '../lib/ids';
import type { NewRelease } from '../repositories/release-ledger.repository';
import {
  type PollBatchInputs,
  type PollOutcome,
  type PollSeriesRow,
  ReleasePollsRepository,
  type SourceOutcome,
} from '../repositories/release-polls.repository';
import { externalIdsFromLinks } from './external-ids';
import { normalizeTitle } from './names';
import { POLL_LEASE_MS, type ReleasePollMessage } from './poll-message';
import type { ProviderContext, ProviderRelease, ReleaseProvider } from './provider';
import { createProviderHttp, ProviderError } from './provider-http';
import { providerSettings } from './provider-settings';
import { PROVIDERS, providerOf } from './providers';

export interface PollBatchDeps {
  db: Database;
  /** The deployment's bindings: each provider's address and pace. */
  env: object;
  timeoutMs: number;
  events: EventPublisher;
  /** The `releases.default_languages` setting. */
  defaultLanguages: readonly string[];
  fetch?: typeof fetch;
}

export type PollMessageOutcome = { kind: 'ack' } | { kind: 'retry'; delaySeconds: number };

export interface PollBatchSummary {
  polled: number;
  /** Messages handed back to the queue for later (a provider asked us to wait, or failed). */
  retried: number;
  skipped: number;
  failed: number;
  recorded: number;
  announced: number;
  /** D1 statements the batch ran (the bench divides them by the series polled). */
  statements: number;
}

/** Requests in flight to one provider at once (their starts still spaced by its pace). */
const PER_SOURCE_CONCURRENCY = 4;
/** A provider that is down or slow is left alone this long before the next try. */
const UNAVAILABLE_BACKOFF_MS = 120_000;
/** Confidence of a release matched through the series' own id, and through an exact name. */
const BY_ID = 1;
const BY_NAME = 0.9;

interface SeriesState {
  row: PollSeriesRow;
  /** High-water marks as the batch moves them (several sources may report the same series). */
  latestChapter: number | null;
  latestVolume: number | null;
  rose: boolean;
}

/** Index of the batch's inputs. */
function indexInputs(inputs: PollBatchInputs) {
  const group = <T extends { seriesId: string }>(rows: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(row.seriesId, [...(map.get(row.seriesId) ?? []), row]);
    return map;
  };
  return {
    sources: new Map(inputs.sources.map((s) => [s.id, s])),
    series: new Map<string, SeriesState>(
      inputs.series.map((row) => [
        row.id,
        { row, latestChapter: row.latestKnownChapter, latestVolume: row.latestKnownVolume, rose: false },
      ]),
    ),
    aliases: group(inputs.aliases),
    externalIds: group(inputs.externalIds),
    polls: new Map(inputs.polls.map((p) => [`${p.seriesId}|${p.sourceId}`, p])),
    bookLinks: group(inputs.bookLinks),
  };
}

type Indexed = ReturnType<typeof indexInputs>;

/** The names a series may go by at a provider: title, sort title, other titles, aliases (each once). */
function namesOf(series: PollSeriesRow, aliases: readonly { alias: string }[]): string[] {
  const names = [
    series.title,
    series.titleSort,
    ...series.alternateTitles.map((t) => t.title),
    ...aliases.map((a) => a.alias),
  ];
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = normalizeTitle(name);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a release is worth announcing for this series: its language, a tracked axis, above the marks. */
function isNews(release: ProviderRelease, state: SeriesState, languages: readonly string[]): boolean {
  if (!languages.includes(release.language)) return false;
  const { chapterTracking, volumeTracking } = state.row;
  const newChapter =
    chapterTracking !== false && release.chapters !== null && release.chapters.end > (state.latestChapter ?? -1);
  const newVolume =
    volumeTracking !== false && release.volumes !== null && release.volumes.end > (state.latestVolume ?? -1);
  return newChapter || newVolume;
}

export async function pollReleaseBatch(
  deps: PollBatchDeps,
  messages: readonly ReleasePollMessage[],
): Promise<{ outcomes: PollMessageOutcome[]; summary: PollBatchSummary }> {
  const started = new Date();
  const now = started.toISOString();
  const repository = new ReleasePollsRepository(deps.db);
  const sourceIds = [...new Set(messages.map((m) => m.sourceId))];
  const seriesIds = [...new Set(messages.flatMap((m) => m.seriesIds))];
  const { statements: readStatements, ...inputs } = await repository.load(
    sourceIds,
    seriesIds,
    PROVIDERS.flatMap((p) => p.linkHosts),
  );
  const index = indexInputs(inputs);
  const summary: PollBatchSummary = {
    polled: 0,
    retried: 0,
    skipped: 0,
    failed: 0,
    recorded: 0,
    announced: 0,
    statements: readStatements,
  };
  const polls: PollOutcome[] = [];
  const releases: NewRelease[] = [];
  const metadataIds: Array<{ id: string; seriesId: string; source: string; externalId: string; externalUrl: string }> =
    [];
  const sourceOutcomes: SourceOutcome[] = [];
  const outcomes: PollMessageOutcome[] = messages.map(() => ({ kind: 'ack' }));

  // Sources are asked side by side; one source's series a few at a time, their starts at its pace.
  await Promise.all(
    sourceIds.map(async (sourceId) => {
      const source = index.sources.get(sourceId);
      const provider = source && providerOf(source.provider);
      const mine = messages.flatMap((message, i) => (message.sourceId === sourceId ? [{ message, i }] : []));
      if (!source || !provider || !source.enabled) return; // acked: a disabled source's polls wait, leased
      const waitMs = source.backoffUntil ? Date.parse(source.backoffUntil) - started.getTime() : 0;
      if (waitMs > 0) {
        for (const { i } of mine) outcomes[i] = { kind: 'retry', delaySeconds: Math.ceil(waitMs / 1000) };
        return;
      }
      const settings = providerSettings(deps.env, provider);
      const context: ProviderContext = {
        baseUrl: settings.baseUrl,
        http: createProviderHttp({
          name: provider.displayName,
          timeoutMs: deps.timeoutMs,
          minIntervalMs: settings.minIntervalMs,
          fetch: deps.fetch,
        }),
      };
      const run = {
        polled: 0,
        failed: 0,
        recorded: 0,
        firstError: null as string | null,
        halt: null as ProviderError | null,
      };
      // A few requests in flight (the pacer still spaces their starts at the provider's interval), so one slow
      // answer does not hold the rest; once the provider asks us to wait, nothing more is sent to it.
      const items = mine.flatMap(({ message, i }) => message.seriesIds.map((seriesId) => ({ message, i, seriesId })));
      const unfinished = new Set<number>();
      await mapLimited(items, PER_SOURCE_CONCURRENCY, async ({ message, i, seriesId }) => {
        if (run.halt) {
          unfinished.add(i);
          return;
        }
        const state = index.series.get(seriesId);
        const poll = index.polls.get(`${seriesId}|${sourceId}`);
        const interval = (state?.row.pollIntervalOverrideS ?? source.pollIntervalS) * 1000;
        const next = new Date(Date.now() + interval).toISOString();
        // Untracked since it was queued (its poll row went), or already polled by an earlier delivery.
        if (!state?.row.tracked || !poll || (poll.lastPolledAt ?? '') >= message.claimedAt) {
          summary.skipped += 1;
          return;
        }
        // A series whose books are all gone is not asked about; it waits a turn (it may come back).
        if (state.row.deleted) {
          polls.push({ ...poll, nextPollAt: next });
          summary.skipped += 1;
          return;
        }
        try {
          const found = await resolveId(provider, context, state.row, index, poll.matchedId);
          for (const id of found.metadataIds) metadataIds.push({ id: newId(), seriesId, ...id });
          if (!found.id) {
            throw new ProviderError(
              'not-found',
              `${provider.displayName} has no series named "${state.row.title}" or any of its other titles and aliases`,
            );
          }
          const snapshot = await provider.poll(context, found.id);
          const languages = state.row.languages ?? deps.defaultLanguages;
          const news = snapshot.releases.filter((release) => isNews(release, state, languages));
          for (const release of news) releases.push(toNewRelease(release, seriesId, sourceId, found.confidence, now));
          // The marks rise to the newest release seen in the series' languages, announced or not.
          for (const release of snapshot.releases.filter((r) => languages.includes(r.language))) {
            if (release.chapters && release.chapters.end > (state.latestChapter ?? -1)) {
              state.latestChapter = release.chapters.end;
              state.rose = true;
            }
            if (release.volumes && release.volumes.end > (state.latestVolume ?? -1)) {
              state.latestVolume = release.volumes.end;
              state.rose = true;
            }
          }
          polls.push({
            seriesId,
            sourceId,
            nextPollAt: next,
            lastPolledAt: now,
            lastError: null,
            matchedId: found.matched ? found.id : poll.matchedId,
            chapterCount: snapshot.chapterCount,
            volumeCount: snapshot.volumeCount,
            status: snapshot.status,
          });
          run.polled += 1;
          run.recorded += news.length;
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          run.failed += 1;
          run.firstError ??= error.message;
          if (error.transient) {
            // Left leased (its next poll time untouched): the retried message, or the lease's end, polls it again.
            polls.push({ ...poll, nextPollAt: leasedUntil(message), lastError: error.message });
            run.halt ??= error;
            unfinished.add(i);
            return;
          }
          // A wrong answer is not asked again until the series' next turn.
          polls.push({ ...poll, nextPollAt: next, lastPolledAt: now, lastError: error.message });
        }
      });
      for (const i of unfinished) {
        outcomes[i] = {
          kind: 'retry',
          delaySeconds: Math.ceil(((run.halt as ProviderError | null)?.retryAfterMs ?? UNAVAILABLE_BACKOFF_MS) / 1000),
        };
      }
      summary.polled += run.polled;
      summary.failed += run.failed;
      sourceOutcomes.push({
        id: sourceId,
        lastPolledAt: now,
        lastError: run.firstError,
        lastSummary: `polled ${run.polled} series, ${run.recorded} new releases${run.failed > 0 ? `, ${run.failed} failed` : ''}`,
        backoffUntil: run.halt
          ? new Date(Date.now() + (run.halt.retryAfterMs ?? UNAVAILABLE_BACKOFF_MS)).toISOString()
          : null,
      });
    }),
  );

  summary.retried = outcomes.filter((o) => o.kind === 'retry').length;
  const highWater = [...index.series.values()]
    .filter((s) => s.rose)
    .map((s) => ({ seriesId: s.row.id, chapter: s.latestChapter, volume: s.latestVolume }));
  const { recorded, statements } = await repository.record({
    polls,
    metadataIds: dedupeMetadataIds(metadataIds),
    releases,
    highWater,
    sources: sourceOutcomes,
    now,
  });
  summary.statements += statements;
  summary.recorded = recorded.length;
  const announced = recorded.filter((r) => r.state === 'announced');
  summary.announced = announced.length;
  deps.events.publish(
    ...announced.map((r) => {
      const series = index.series.get(r.seriesId)?.row;
      return {
        type: 'release_announced' as const,
        ledger_id: r.id,
        series_id: r.seriesId,
        series_title: series?.title ?? '',
        library_id: series?.libraryId ?? '',
        source_id: r.sourceId,
        provider: index.sources.get(r.sourceId)?.provider ?? '',
        chapter: r.chapter,
        volume: r.volume,
        language: r.language,
      };
    }),
  );
  return { outcomes, summary };
}

/** The lease a claimed poll holds until its message is done. */
function leasedUntil(message: ReleasePollMessage): string {
  return new Date(Date.parse(message.claimedAt) + POLL_LEASE_MS).toISOString();
}

/** Two sources of one provider in a batch may both read the same link: one id row each. */
function dedupeMetadataIds<T extends { seriesId: string; source: string }>(ids: readonly T[]): T[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    const key = `${id.seriesId}|${id.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toNewRelease(
  release: ProviderRelease,
  seriesId: string,
  sourceId: string,
  confidence: number,
  now: string,
): NewRelease {
  return {
    id: newId(),
    seriesId,
    sourceId,
    externalReleaseId: release.externalReleaseId,
    chapterStart: release.chapters?.start ?? null,
    chapter: release.chapters?.end ?? null,
    volumeStart: release.volumes?.start ?? null,
    volume: release.volumes?.end ?? null,
    language: release.language,
    groupOrUploader: release.group,
    payloadUrl: release.payloadUrl,
    confidence,
    metadata: release.title ? { title: release.title } : null,
    observedAt: now,
    releasedAt: release.releasedAt,
  };
}

/**
 * The series' id at the provider: its own (a person's or a metadata one), one its links name (kept as a
 * metadata id), the one an earlier search found, or a search by its names.
 */
async function resolveId(
  provider: ReleaseProvider,
  context: ProviderContext,
  series: PollSeriesRow,
  index: Indexed,
  matchedId: string | null,
): Promise<{
  id: string | null;
  matched: boolean;
  confidence: number;
  metadataIds: Array<{ source: string; externalId: string; externalUrl: string }>;
}> {
  const own = index.externalIds.get(series.id)?.find((e) => e.source === provider.key);
  if (own) return { id: own.externalId, matched: false, confidence: BY_ID, metadataIds: [] };
  const links = [...series.links.map((l) => l.url), ...(index.bookLinks.get(series.id) ?? []).map((l) => l.url)];
  const linked = externalIdsFromLinks(links).find((e) => e.provider.key === provider.key);
  if (linked) {
    return {
      id: linked.externalId,
      matched: false,
      confidence: BY_ID,
      metadataIds: [{ source: provider.key, externalId: linked.externalId, externalUrl: linked.externalUrl }],
    };
  }
  if (matchedId) return { id: matchedId, matched: true, confidence: BY_NAME, metadataIds: [] };
  const found = await provider.find(context, namesOf(series, index.aliases.get(series.id) ?? []));
  return { id: found, matched: found !== null, confidence: BY_NAME, metadataIds: [] };
}
