/**
 * Domain events (API.md §6, DECISIONS.md §Tasks and events): one closed union. Services publish them
 * through `EventPublisher`; the EventHub Durable Object numbers, buffers and fans them out to SSE.
 */
export type EntityEventType =
  | 'book_created'
  | 'book_updated'
  | 'book_deleted'
  | 'series_created'
  | 'series_updated'
  | 'series_deleted'
  | 'library_created'
  | 'library_updated'
  | 'cover_updated'
  | 'release_announced'
  | ListEventType;

/** A collection's or a read list's life (docs/DECISIONS.md §Organise and share): its members as they are now. */
export type ListEventType =
  | 'collection_created'
  | 'collection_updated'
  | 'collection_deleted'
  | 'read_list_created'
  | 'read_list_updated'
  | 'read_list_deleted';

export type DomainEvent =
  | { type: 'book_created' | 'book_updated' | 'book_deleted'; book_id: string; series_id: string; library_id: string }
  | { type: 'series_created' | 'series_updated' | 'series_deleted'; series_id: string; library_id: string }
  | { type: 'library_created' | 'library_updated'; library_id: string }
  | { type: 'cover_updated'; entity_type: 'book' | 'series' | 'library'; entity_id: string; library_id: string }
  | {
      type: 'collection_created' | 'collection_updated' | 'collection_deleted';
      collection_id: string;
      /** Its series in order (none for a smart collection, whose members depend on who reads it). */
      series_ids: string[];
    }
  | { type: 'read_list_created' | 'read_list_updated' | 'read_list_deleted'; read_list_id: string; book_ids: string[] }
  /**
   * A poll recorded a new release of a tracked series (docs/DECISIONS.md §Release tracking; Codex-rs's
   * `ReleaseAnnounced`, in Longbox's snake_case): streams that see the series get it.
   */
  | {
      type: 'release_announced';
      ledger_id: string;
      series_id: string;
      series_title: string;
      library_id: string;
      source_id: string;
      /** The source's provider key (Codex's `pluginId`). */
      provider: string;
      chapter: number | null;
      volume: number | null;
      language: string | null;
    }
  /**
   * Someone else ended all of the user's sessions (an admin set their password, deactivated or deleted them):
   * only that user's own streams get it, whatever their credentials are worth now (Komga's `SessionExpired`).
   */
  | { type: 'session_expired'; user_id: string }
  | {
      type: 'task_progress';
      task_id: string;
      task_type: string;
      status: string;
      progress: { current: number; total: number; message: string };
    }
  | {
      type: 'scan_progress';
      library_id: string;
      task_id: string;
      status: string;
      files_total: number;
      files_processed: number;
      series_found: number;
      books_found: number;
      errors: number;
      files_skipped: number;
      /** Why objects were not read: `{extension, reason, count, message}` per group. */
      skipped: Array<{ extension: string; reason: string; count: number; message: string }>;
      started_at: string;
      completed_at: string | null;
    };

/** Which SSE stream carries an event. */
export type EventStream = 'events' | 'tasks' | 'scans';

export function streamOf(event: DomainEvent): EventStream {
  if (event.type === 'task_progress') return 'tasks';
  if (event.type === 'scan_progress') return 'scans';
  return 'events';
}

/** An event as stored and sent: `timestamp` added at publish time, `id` assigned by the hub. */
export type PublishedEvent = DomainEvent & { timestamp: string };

export interface EventPublisher {
  publish(...events: DomainEvent[]): void;
}
