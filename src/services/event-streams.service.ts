/**
 * What each subscriber of an SSE stream receives (docs/DECISIONS.md §Organise and share, "Enforcement"):
 * the hub sends every event to every stream, and the API worker passes on, per subscriber, only those
 * about what the subscriber sees — as the catalog queries would answer them:
 *
 * - book, series, cover and release events: the library must be one the viewer sees and, under a content
 *   restriction, the series or book visible (one indexed lookup for all the ids of an event not decided
 *   yet, remembered by the stream until its next access refresh, so a series hidden meanwhile stops
 *   showing within a second);
 * - library events: the library seen;
 * - `session_expired`: the user's own streams only, even once their credentials no longer hold;
 * - scan and task progress, which count everything in a library: only for viewers without content
 *   restrictions, and only of libraries they see (a task without a library: only for those who see all).
 *
 * The caller's access is read again at most once a second while events flow, so a restriction changed
 * (or a key revoked) while a stream is open applies to it within a second; a caller whose credentials no
 * longer hold gets nothing more.
 */
import type { Principal } from '../auth/principal';
import type { PublishedEvent } from '../events/events';
import { filterFrames } from '../events/sse';
import type { EventAudienceRepository } from '../repositories/event-audience.repository';
import type { TasksRepository } from '../repositories/tasks.repository';
import { seesAllContent, seesEverything, seesLibrary, type Viewer, viewerOf } from '../repositories/visibility';

/** How long a stream trusts the access it read. */
export const ACCESS_REFRESH_MS = 1000;

export class EventStreamsService {
  constructor(
    private readonly audience: EventAudienceRepository,
    private readonly tasks: TasksRepository,
    private readonly refresh: (principal: Principal) => Promise<Principal | null>,
  ) {}

  /** The hub's stream for this caller: only the events they may see. */
  forCaller(body: ReadableStream<Uint8Array>, principal: Principal): ReadableStream<Uint8Array> {
    return body.pipeThrough(filterFrames(this.audienceOf(principal)));
  }

  /** A stream's gate: its caller's current viewer and what it has decided since it last read it. */
  private audienceOf(principal: Principal): (event: PublishedEvent) => Promise<boolean> {
    let current: Principal | null = principal;
    let readAt = Date.now();
    let decided = new Map<string, boolean>();
    const viewerNow = async (): Promise<Viewer | null> => {
      if (current && Date.now() - readAt >= ACCESS_REFRESH_MS) {
        current = await this.refresh(current);
        readAt = Date.now();
        // A series can become hidden while the caller's access stays the same (a denied tag put on it, its
        // rating raised): what was decided holds no longer than the access it was decided with.
        decided = new Map();
      }
      return current && viewerOf(current);
    };
    // A task's library never changes: asked once per stream, not once per progress event.
    const taskLibraries = new Map<string, string | null>();
    const taskLibrary = async (taskId: string) => {
      if (!taskLibraries.has(taskId)) taskLibraries.set(taskId, (await this.tasks.get(taskId))?.libraryId ?? null);
      return taskLibraries.get(taskId) ?? null;
    };
    return async (event) => {
      // Tells the user their credentials ended, so it reaches them though their access no longer holds; nobody else.
      if (event.type === 'session_expired') return event.user_id === principal.user.id;
      const viewer = await viewerNow();
      if (!viewer) return false;
      if (seesEverything(viewer)) return true;
      // Every id of the event not decided yet is looked up in one statement (a list event names many).
      const allVisible = async (kind: 'series' | 'book', ids: readonly string[]) => {
        const key = (id: string) => `${kind}:${id}`;
        const undecided = [...new Set(ids.filter((id) => !decided.has(key(id))))];
        if (undecided.length > 0) {
          const found = await this.visibleIds(viewer, kind, undecided);
          for (const id of undecided) decided.set(key(id), found.has(id));
        }
        return ids.every((id) => decided.get(key(id)) === true);
      };
      return this.allows(viewer, event, allVisible, taskLibrary);
    };
  }

  private async allows(
    viewer: Viewer,
    event: PublishedEvent,
    visible: (kind: 'series' | 'book', ids: readonly string[]) => Promise<boolean>,
    taskLibrary: (taskId: string) => Promise<string | null>,
  ): Promise<boolean> {
    switch (event.type) {
      case 'library_created':
      case 'library_updated':
        return seesLibrary(viewer, event.library_id);
      case 'series_created':
      case 'series_updated':
      case 'series_deleted':
        return (
          seesLibrary(viewer, event.library_id) && (seesAllContent(viewer) || visible('series', [event.series_id]))
        );
      case 'book_created':
      case 'book_updated':
      case 'book_deleted':
      case 'release_announced':
        return (
          seesLibrary(viewer, event.library_id) && (seesAllContent(viewer) || visible('series', [event.series_id]))
        );
      case 'cover_updated':
        if (!seesLibrary(viewer, event.library_id)) return false;
        if (event.entity_type === 'library' || seesAllContent(viewer)) return true;
        return visible(event.entity_type, [event.entity_id]);
      // A list's event names its members: a restricted stream gets it only when it sees every one of them, so
      // no hidden id reaches it (a list made only of hidden items is hidden; docs/DECISIONS.md §Organise and share).
      case 'collection_created':
      case 'collection_updated':
      case 'collection_deleted':
        return visible('series', event.series_ids);
      case 'read_list_created':
      case 'read_list_updated':
      case 'read_list_deleted':
        return visible('book', event.book_ids);
      case 'scan_progress':
        return seesAllContent(viewer) && seesLibrary(viewer, event.library_id);
      case 'session_expired':
        return false; // decided before any access is read (audienceOf)
      case 'task_progress': {
        if (!seesAllContent(viewer)) return false;
        const libraryId = await taskLibrary(event.task_id);
        return libraryId !== null && seesLibrary(viewer, libraryId);
      }
    }
  }

  private visibleIds(viewer: Viewer, kind: 'series' | 'book', ids: string[]): Promise<Set<string>> {
    return kind === 'series' ? this.audience.visibleSeriesIds(viewer, ids) : this.audience.visibleBookIds(viewer, ids);
  }
}
